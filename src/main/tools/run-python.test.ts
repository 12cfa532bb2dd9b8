// run_python's staging of the program (running it is covered through the fake model by
// service/run-python.integration.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Executor } from '../sandbox/executor';
import { createRunPythonTool } from './run-python';
import { SCRIPTS_DIR } from './staged-program';
import { contextFor, makeTempRoot, removeTemp } from './testing';

let root: string;
let outside: string;
beforeEach(() => {
  root = makeTempRoot('folio-python-');
  outside = makeTempRoot('folio-python-outside-');
});
afterEach(() => {
  removeTemp(root);
  removeTemp(outside);
});

const started: string[][] = [];
const executor = {
  kind: 'bubblewrap',
  hostFilesystem: true,
  shownRoot: (r: string) => r,
  status: () => ({ active: true, reason: 'test' }),
  note: () => '',
  run: (argv: readonly string[]) => {
    started.push([...argv]);
    return Promise.reject(new Error('the program must not start'));
  },
  release: () => Promise.resolve(),
  close: () => Promise.resolve(),
} as unknown as Executor;
const tool = createRunPythonTool({ executor, python: () => ({ available: true, executable: '/usr/bin/python3', version: '3.11', packages: [] }) });

describe('run_python staging', () => {
  it('a .scripts link out of the task, or a matplotlibrc link, writes nothing outside', async () => {
    fs.mkdirSync(path.join(root, 'work'), { recursive: true });
    fs.symlinkSync(outside, path.join(root, SCRIPTS_DIR));
    await expect(tool.execute({ code: 'print(1)' }, contextFor(root))).rejects.toMatchObject({ code: 'path_escape' });
    expect(fs.readdirSync(outside)).toEqual([]);

    fs.unlinkSync(path.join(root, SCRIPTS_DIR));
    fs.mkdirSync(path.join(root, SCRIPTS_DIR));
    const victim = path.join(outside, 'victim.txt');
    fs.writeFileSync(victim, 'keep me');
    fs.symlinkSync(victim, path.join(root, SCRIPTS_DIR, 'matplotlibrc'));
    await expect(tool.execute({ code: 'print(1)' }, contextFor(root))).rejects.toMatchObject({ code: 'path_escape' });
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep me');
    // The staged program is removed again, and nothing ran.
    expect(fs.readdirSync(path.join(root, SCRIPTS_DIR))).toEqual(['matplotlibrc']);
    expect(started).toEqual([]);
  });
});
