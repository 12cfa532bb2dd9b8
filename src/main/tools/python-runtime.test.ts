import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probePython, pythonCandidates, pythonFor } from './python-runtime';
import { makeTempRoot, removeTemp } from './testing';
import type { Executor } from '../sandbox/executor';

let dir: string;
beforeEach(() => {
  dir = makeTempRoot('folio-python-');
});
afterEach(() => removeTemp(dir));

/** A fake interpreter answering the probe with `answer` (a shell script standing in for python3). */
function fakePython(name: string, answer: object): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\necho '${JSON.stringify(answer)}'\n`, { mode: 0o755 });
  return file;
}

describe('finding Python for run_python', () => {
  it('picks the candidate with the analysis packages over a bare one found first, by its real path', () => {
    const bare = fakePython('shim', { executable: '/opt/bare/python3', version: '3.12.1', major: 3, packages: [] });
    const full = fakePython('system', { executable: '/usr/bin/python3', version: '3.11.2', major: 3, packages: [['numpy', '1.24.2'], ['pandas', '1.5.3'], ['matplotlib', null]] });
    expect(probePython([bare, full])).toEqual({
      available: true, executable: '/usr/bin/python3', version: '3.11.2',
      packages: [{ module: 'numpy', version: '1.24.2' }, { module: 'pandas', version: '1.5.3' }, { module: 'matplotlib', version: null }],
    });
    // On a tie the first (the PATH's) wins.
    expect(probePython([bare, fakePython('other', { executable: '/x/python3', version: '3.10.0', major: 3, packages: [] })])).toMatchObject({ executable: '/opt/bare/python3' });
  });

  it('says why there is none: not found, Python 2, a broken answer', () => {
    const two = fakePython('python2', { executable: '/usr/bin/python2', version: '2.7.18', major: 2, packages: [] });
    const broken = path.join(dir, 'broken');
    fs.writeFileSync(broken, '#!/bin/sh\necho nonsense\n', { mode: 0o755 });
    const none = probePython([path.join(dir, 'missing'), two, broken]);
    expect(none.available).toBe(false);
    expect(!none.available && none.reason).toMatch(/missing: not found; .*python2 is Python 2\.7\.18, not Python 3; .*broken did not answer the probe/);
  });

  it('takes FOLIO_PYTHON alone when set, else python3 on the PATH and then the system one', () => {
    expect(pythonCandidates({ FOLIO_PYTHON: '/opt/py/bin/python3' }, 'linux')).toEqual(['/opt/py/bin/python3']);
    expect(pythonCandidates({}, 'linux')).toEqual(['python3', '/usr/bin/python3']);
  });

  it('in a container, uses the image’s python3 without probing this machine', () => {
    const container = { hostFilesystem: false } as Executor;
    expect(pythonFor(container, () => { throw new Error('probed'); })).toMatchObject({ available: true, executable: 'python3', packages: null });
  });
});
