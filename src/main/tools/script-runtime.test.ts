import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findNodeOnPath, scriptRuntime } from './script-runtime';
import { ToolError } from './types';

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-runtime-'));
const empty = path.join(base, 'empty');
const withNode = path.join(base, 'bin');
const notExecutable = path.join(base, 'noexec');
for (const dir of [empty, withNode, notExecutable]) fs.mkdirSync(dir);
fs.writeFileSync(path.join(withNode, 'node'), '#!/bin/sh\n', { mode: 0o755 });
fs.writeFileSync(path.join(notExecutable, 'node'), 'not a program', { mode: 0o644 });
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('scriptRuntime', () => {
  it('uses Folio’s own executable under plain Node', () => {
    expect(scriptRuntime(undefined, { execPath: '/opt/node/bin/node', pathEnv: '', platform: 'linux' })).toBe('/opt/node/bin/node');
  });

  it('never runs the Electron binary as Node: under Electron it takes the first node on PATH', () => {
    const host = { electron: '45.5.0', execPath: '/Applications/Folio.app/Contents/MacOS/Folio', platform: 'linux' as const };
    expect(scriptRuntime(undefined, { ...host, pathEnv: [empty, notExecutable, 'relative/bin', withNode].join(':') })).toBe(path.join(withNode, 'node'));
  });

  it('tells the model, as a tool error, when the desktop app finds no node', () => {
    const host = { electron: '45.5.0', execPath: '/x/Folio', platform: 'linux' as const, pathEnv: `${empty}:${notExecutable}` };
    expect(() => scriptRuntime(undefined, host)).toThrow(ToolError);
    expect(() => scriptRuntime(undefined, host)).toThrow(/needs Node\.js .* on the PATH/u);
  });

  it('keeps an explicitly configured binary', () => {
    expect(scriptRuntime('/custom/node', { electron: '45.5.0', execPath: '/x/Folio', pathEnv: '', platform: 'linux' })).toBe('/custom/node');
  });
});

describe('findNodeOnPath', () => {
  it('skips missing, relative and non-executable entries', () => {
    expect(findNodeOnPath(undefined, 'linux')).toBeNull();
    expect(findNodeOnPath(`${notExecutable}::${empty}`, 'linux')).toBeNull();
    expect(findNodeOnPath(`${empty}:${withNode}`, 'linux')).toBe(path.join(withNode, 'node'));
  });
});
