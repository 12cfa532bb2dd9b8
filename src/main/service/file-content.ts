// A file read over the contract in one payload (a task's file, a library's file): text as UTF-8,
// anything else as base64, refused past READ_LIMIT.
import { statSync } from 'node:fs';
import type { MethodOutput } from '../../shared/contract';
import { FolioError, NotFoundError } from '../../shared/errors';
import { readInside, resolveInside } from '../workspace/task-paths';
import { isTextMime, mimeOf } from './task-files';

/** Files read over the contract as one payload; bigger ones are downloads only. */
const READ_LIMIT = 50 * 1024 * 1024;

/** `rel` inside `root`; `missing` is the NotFoundError's message when there is no such file. */
export async function readFileContent(root: string, rel: string, missing: string): Promise<MethodOutput<'readFile'>> {
  const abs = resolveInside(root, rel);
  let size: number;
  try {
    const stat = statSync(abs);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    throw new NotFoundError(missing);
  }
  if (size > READ_LIMIT) throw new FolioError('payload_too_large', `${rel} is larger than ${READ_LIMIT / 1024 / 1024} MB; open it from its folder`);
  const mime = mimeOf(abs);
  // Opened without following a link swapped in since the check (downloads go through here too).
  const bytes = await readInside(root, rel, { maxBytes: READ_LIMIT });
  return isTextMime(mime) ? { path: rel, mime, size, encoding: 'utf8', data: bytes.toString('utf8') } : { path: rel, mime, size, encoding: 'base64', data: bytes.toString('base64') };
}
