import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { grantKeyFor } from '../agent/approval-policy';
import { editTool } from './edit';
import { filesRunByCommand } from './ran-files';
import { createRunScriptTool } from './run-script';
import { createShellTool } from './shell/tool';
import { contextFor, makeTempRoot, removeTemp, writeFiles } from './testing';
import { writeTool } from './write';

let root: string;
beforeEach(() => {
  root = makeTempRoot('folio-ran-');
  writeFiles(root, {
    'work/t.sh': 'echo hi\n',
    'work/x.py': 'import helper\nprint(helper.X)\n',
    'work/helper.py': 'X = 1\n',
    'work/build.mk': 'all:\n\techo ok\n',
    'Makefile': 'all:\n\techo top\n',
    'work/app.js': "const m = require('./lib.js');\n",
    'work/lib.js': 'module.exports = 1;\n',
    'package.json': JSON.stringify({ scripts: { test: 'node work/test.js' } }),
    'work/test.js': "import './util.mjs';\n",
    'work/util.mjs': 'export const x = 1;\n',
    'work/mod.mjs': 'export default 1;\n',
  });
});
afterEach(() => removeTemp(root));

const shell = createShellTool();
const script = createRunScriptTool();

function shellScope(command: string): string | undefined {
  return grantKeyFor(shell, { command }, { root })?.scope;
}

describe('a grant is bound to the contents of the files a command runs', () => {
  // Each rewrite used to run silently under the grant given for the old contents.
  const cases: [string, string][] = [
    ['sh work/t.sh', 'work/t.sh'],
    ['python3 work/x.py', 'work/helper.py'],
    ['make -f work/build.mk', 'work/build.mk'],
    ['make', 'Makefile'],
    ['node work/app.js', 'work/lib.js'],
    ['npm test', 'work/util.mjs'],
    ['./work/t.sh', 'work/t.sh'],
  ];
  it.each(cases)('%s: changing %s changes the grant scope; an unchanged file keeps it', (command, changed) => {
    const before = shellScope(command);
    expect(shellScope(command)).toBe(before);
    fs.appendFileSync(path.join(root, changed), '\ncat /etc/shadow\n');
    expect(shellScope(command)).not.toBe(before);
  });

  it('names the files it binds to', () => {
    expect(filesRunByCommand(root, 'npm test')).toEqual(['package.json', 'work/test.js', 'work/util.mjs']);
    expect(filesRunByCommand(root, 'ls -la')).toEqual([]);
  });

  it('a run_script grant follows the modules the script imports', () => {
    const args = { code: "import m from '../mod.mjs';\nconsole.log(m);" };
    const before = grantKeyFor(script, args, { root })?.scope;
    fs.writeFileSync(path.join(root, 'work/mod.mjs'), 'export default 2;\n');
    expect(grantKeyFor(script, args, { root })?.scope).not.toBe(before);
  });

  it('the card says what the grant covers', async () => {
    const risk = await shell.assess?.({ command: 'sh work/t.sh' }, contextFor(root));
    expect(risk?.reasons).toContainEqual({ code: 'runs_file', subject: 'work/t.sh' });
  });
});

describe('git is code: writes into .git ask in every mode', () => {
  it('write and edit of .git/config and .git/hooks are destructive with the git reason', async () => {
    writeFiles(root, { '.git/config': '[core]\n\tbare = false\n' });
    for (const p of ['.git/config', '.git/hooks/pre-commit', '.git/info/attributes', 'sub/.GIT/config']) {
      const risk = await writeTool.assess?.({ path: p, content: 'x' }, contextFor(root));
      expect(risk, p).toMatchObject({ risk: 'destructive', reasons: [{ code: 'git_code', subject: p }] });
    }
    const edit = await editTool.assess?.({ path: '.git/config', old_str: 'bare = false', new_str: 'fsmonitor = "id"' }, contextFor(root));
    expect(edit).toMatchObject({ risk: 'destructive', reasons: [{ code: 'git_code' }] });
    expect(await writeTool.assess?.({ path: 'work/notes.md', content: 'x' }, contextFor(root))).toMatchObject({ risk: 'standard' });
  });

  it('a shell write into .git is destructive with the git reason', async () => {
    const risk = await shell.assess?.({ command: 'echo "[core] fsmonitor = id" > .git/config' }, contextFor(root));
    expect(risk).toMatchObject({ risk: 'destructive' });
    expect(risk?.reasons?.map((r) => r.code)).toContain('git_code');
  });
});
