// A file a person adds (a task's source, a library file): checked, named for the folder it is
// copied into, and hashed, the same way wherever it goes.
import { createHash } from 'node:crypto';
import { createReadStream, statSync, type Stats } from 'node:fs';
import { basename, extname } from 'node:path';
import { FolioError } from '../../shared/errors';

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The file to add: a regular file, or a typed error naming it (not_found, invalid_input). */
export function statAddedFile(from: string): Stats {
  let stat;
  try {
    stat = statSync(from);
  } catch {
    throw new FolioError('not_found', `File not found: ${basename(from)}`);
  }
  if (!stat.isFile()) throw new FolioError('invalid_input', `Not a file: ${basename(from)}`);
  return stat;
}

/** `report.pdf` → `report-2.pdf`, `report-3.pdf`, ... until `taken` says a name is free. */
export async function freeName(name: string, taken: (name: string) => boolean | Promise<boolean>): Promise<string> {
  if (!(await taken(name))) return name;
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let i = 2; ; i += 1) {
    const candidate = `${stem}-${i}${ext}`;
    if (!(await taken(candidate))) return candidate;
  }
}

/**
 * File names are limited to 255 bytes on common file systems; room is left for a `-N` suffix and
 * the extraction cache's own suffixes (`.md`, the hidden sidecar).
 */
const MAX_NAME_BYTES = 180;

/** Strips folders and characters no file system accepts; keeps Chinese and other letters. */
export function safeFileName(name: string): string {
  const base = basename(name.replace(/\\/g, '/'));
  const cleaned = base.replace(/[\u0000-\u001f<>:"|?*]/g, '_').replace(/^\.+/, '').trim();
  if (!cleaned) throw new FolioError('invalid_input', `Unusable file name: ${JSON.stringify(name)}`);
  return truncateName(cleaned, MAX_NAME_BYTES);
}

/** Shortens the stem (whole characters, never half of one) so the name fits; the extension is kept. */
function truncateName(name: string, maxBytes: number): string {
  if (Buffer.byteLength(name) <= maxBytes) return name;
  const ext = extname(name);
  const keepExt = ext !== '' && Buffer.byteLength(ext) <= 20 ? ext : '';
  let out = '';
  let bytes = Buffer.byteLength(keepExt);
  for (const char of name.slice(0, name.length - keepExt.length)) {
    bytes += Buffer.byteLength(char);
    if (bytes > maxBytes) break;
    out += char;
  }
  return out + keepExt;
}
