import { describe, expect, it } from 'vitest';
import { operatorCommand, type OperatorCommandSpec } from './operator-command';

const spec: OperatorCommandSpec<'show' | 'erase'> = { usage: 'Usage: folio thing …', actions: ['show', 'erase'], storageRoot: true, required: ['tenant'], options: { tenant: { type: 'string' }, yes: { type: 'boolean' } } };

function call(argv: string[], env: Record<string, string | undefined> = {}, s: OperatorCommandSpec<'show' | 'erase'> = spec) {
  const errors: string[] = [];
  const parsed = operatorCommand(argv, { env, out: () => undefined, err: (line) => errors.push(line) }, s);
  return { parsed, errors };
}

describe('operatorCommand', () => {
  it('parses the action, the command\'s flags, the database and the storage root', () => {
    const { parsed } = call(['erase', '--database', 'postgres://db', '--storage-root', '/srv/folio', '--tenant', 'acme', '--yes']);
    expect(parsed).toMatchObject({ action: 'erase', database: 'postgres://db', storageRoot: '/srv/folio', values: { tenant: 'acme', yes: true } });
  });

  it('falls back to FOLIO_DATABASE_URL and FOLIO_STORAGE_ROOT', () => {
    const { parsed } = call(['show', '--tenant', 'acme'], { FOLIO_DATABASE_URL: 'postgres://env', FOLIO_STORAGE_ROOT: '/env/root' });
    expect(parsed).toMatchObject({ database: 'postgres://env', storageRoot: '/env/root' });
  });

  it('prints the usage and gives null for an unknown action, no database, a missing required flag or an unknown flag', () => {
    for (const [argv, env] of [
      [['drop', '--database', 'x', '--tenant', 'a'], {}],
      [['show', '--tenant', 'a'], {}],
      [['show', '--database', 'x'], {}],
      [['show', '--database', 'x', '--tenant', 'a', '--force'], {}],
    ] as const) {
      const { parsed, errors } = call([...argv], env);
      expect(parsed).toBeNull();
      expect(errors.join('\n')).toContain('Usage: folio thing');
    }
  });

  it('refuses --storage-root where the command takes none', () => {
    const { parsed, errors } = call(['show', '--database', 'x', '--tenant', 'a', '--storage-root', '/r'], {}, { ...spec, storageRoot: false });
    expect(parsed).toBeNull();
    expect(errors[0]).toMatch(/storage-root/);
  });
});
