import { describe, expect, it } from 'vitest';
import { withoutServer, withServerDisabled } from './mcp-config-edit';

interface Config {
  mcpServers: Record<string, unknown>;
  extra?: unknown;
}
const read = (text: string): Config => JSON.parse(text) as Config;

const text = JSON.stringify({
  mcpServers: {
    notes: { command: 'node', args: ['notes.js'], env: { TOKEN: '••••' } },
    web: { url: 'https://example.org/mcp', disabled: true },
  },
  extra: { kept: 1 },
});

describe('mcp config edits', () => {
  it('disables one server and keeps its secrets redacted as they were', () => {
    const next = read(withServerDisabled(text, 'notes', true));
    expect(next.mcpServers.notes).toEqual({ command: 'node', args: ['notes.js'], env: { TOKEN: '••••' }, disabled: true });
    expect(next.mcpServers.web).toEqual({ url: 'https://example.org/mcp', disabled: true });
    expect(next.extra).toEqual({ kept: 1 });
  });

  it('enables a server by removing its "disabled" key', () => {
    const next = read(withServerDisabled(text, 'web', false));
    expect(next.mcpServers.web).toEqual({ url: 'https://example.org/mcp' });
  });

  it('removes one server and keeps the others in order', () => {
    const next = read(withoutServer(text, 'notes'));
    expect(Object.keys(next.mcpServers)).toEqual(['web']);
    expect(next.extra).toEqual({ kept: 1 });
  });

  it('refuses a server the config does not have', () => {
    expect(() => withoutServer(text, 'missing')).toThrow(/no server "missing"/u);
    expect(() => withServerDisabled('{"mcpServers": {}}', 'notes', true)).toThrow(/no server "notes"/u);
  });
});
