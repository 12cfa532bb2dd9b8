// Test helpers for the tools: a throwaway task folder and a context pointing at it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FolioError } from '../../shared/errors';
import { type ToolContext, ToolError } from './types';

export function makeTempRoot(prefix = 'folio-tools-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function removeTemp(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

export function contextFor(root: string, signal: AbortSignal = new AbortController().signal): ToolContext {
  return { root, taskId: 'task-1', runId: 'run-1', callId: 'call-1', signal, outbound: null };
}

/** Writes files given as {relative path: content}, creating folders. */
export function writeFiles(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
}

/** A failure the loop returns to the model as data: a ToolError, or a FolioError such as path_escape. */
export async function toolError(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ToolError || err instanceof FolioError) return err;
    throw err;
  }
  throw new Error('expected a tool error');
}
