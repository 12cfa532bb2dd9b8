import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkWorkspaceFolder, WorkspaceRefusedError, workspaceRefusal } from './folder-policy';

const posix = { home: '/home/ada', dataDir: '/home/ada/.local/share/folio', platform: 'linux' as const };

describe('workspaceRefusal', () => {
  it.each([
    ['/', 'root of the disk'],
    ['/etc', 'system folder'],
    ['/etc/nginx', 'system folder'],
    ['/usr', 'system folder'],
    ['/usr/local/lib', 'system folder'],
    ['/bin', 'system folder'],
    ['/sbin', 'system folder'],
    ['/lib64', 'system folder'],
    ['/var', 'system folder'],
    ['/var/log/app', 'system folder'],
    ['/proc/1', 'system folder'],
    ['/sys', 'system folder'],
    ['/dev', 'system folder'],
    ['/boot', 'system folder'],
    ['/root', 'system folder'],
    ['/home', 'system folder'],
    ['/System/Library', 'system folder'],
    ['/Library', 'system folder'],
    ['/home/ada', 'whole home folder'],
    ['/home/ada/.ssh', 'keys or credentials'],
    ['/home/ada/.ssh/keys', 'keys or credentials'],
    ['/home/ada/.gnupg', 'keys or credentials'],
    ['/home/ada/.aws', 'keys or credentials'],
    ['/home/ada/.config', 'settings of every program'],
    ['/home/ada/.local/share/folio', "Folio's data folder"],
    ['/home/ada/.local/share/folio/tasks/t1', "Folio's data folder"],
    ['/home/ada/.local', "contains Folio's data folder"],
  ])('refuses %s', (folder, reason) => {
    expect(workspaceRefusal(folder, posix)).toContain(reason);
  });

  it.each(['/home/ada/code/app', '/home/ada/.config/nvim', '/var/www/site', '/opt/project', '/root/project', '/tmp/scratch', '/srv/repo'])('allows the project folder %s', (folder) => {
    expect(workspaceRefusal(folder, posix)).toBeNull();
  });

  it('applies Windows rules without regard to case', () => {
    const win = { home: 'C:\\Users\\Ada', dataDir: 'C:\\Users\\Ada\\AppData\\Roaming\\Folio', platform: 'win32' as const };
    expect(workspaceRefusal('C:\\', win)).toContain('root of the disk');
    expect(workspaceRefusal('c:\\windows\\system32', win)).toContain('system folder');
    expect(workspaceRefusal('C:\\Program Files\\App', win)).toContain('system folder');
    expect(workspaceRefusal('C:\\Users', win)).toContain('system folder');
    expect(workspaceRefusal('C:\\Users\\ada', win)).toContain('whole home folder');
    expect(workspaceRefusal('C:\\Users\\Ada\\.ssh', win)).toContain('keys or credentials');
    expect(workspaceRefusal('C:\\Users\\Ada\\AppData\\Roaming\\Folio\\tasks', win)).toContain('data folder');
    expect(workspaceRefusal('D:\\repos\\app', win)).toBeNull();
  });
});

describe('checkWorkspaceFolder', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'folio-ws-')));
  const home = path.join(base, 'home');
  const data = path.join(home, 'folio-data');
  const project = path.join(home, 'code', 'app');
  for (const dir of [data, project, path.join(home, '.ssh')]) fs.mkdirSync(dir, { recursive: true });
  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

  const refusal = (chosen: string) => {
    try {
      checkWorkspaceFolder(chosen, data, home);
      return null;
    } catch (err) {
      return err;
    }
  };

  it('returns the real path of a project folder', () => {
    expect(checkWorkspaceFolder(project, data, home)).toBe(project);
  });

  it('resolves links first: a link to /etc, to the data folder or to ~/.ssh is refused as what it points to', () => {
    const cases: [string, string][] = [
      ['etc-link', '/etc'],
      ['data-link', data],
      ['ssh-link', path.join(home, '.ssh')],
    ];
    for (const [name, target] of cases) {
      const link = path.join(home, 'code', name);
      fs.symlinkSync(target, link);
      const err = refusal(link);
      expect(err).toBeInstanceOf(WorkspaceRefusedError);
      expect(err).toMatchObject({ code: 'workspace_refused', folder: fs.realpathSync(target) });
    }
  });

  it('refuses the home folder itself and a folder containing the data folder, with a typed error', () => {
    expect(refusal(home)).toMatchObject({ name: 'WorkspaceRefusedError', code: 'workspace_refused', message: expect.stringContaining('home folder') as unknown });
    expect(refusal(base)).toMatchObject({ code: 'workspace_refused' });
  });

  it('keeps invalid_input for paths that are not existing absolute folders', () => {
    expect(refusal('relative/path')).toMatchObject({ code: 'invalid_input' });
    expect(refusal(path.join(base, 'missing'))).toMatchObject({ code: 'invalid_input' });
  });
});
