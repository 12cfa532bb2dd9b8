// Multipart uploads (web mode's equivalent of dropping files on the desktop window): each file is
// streamed to a private temp dir, handed to the core, and the temp dir is always removed.
import type { LibraryFile, LibraryId } from '../../../shared/contract/projects';
import { createRequire } from 'node:module';
import type Busboy from 'busboy';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type FileEntry } from '../../../shared/contract/entities';
import { ValidationError } from '../../../shared/errors';
import { type TemplateSummary } from '../../../shared/specs/templates';
import type { FolioCore } from '../../service/ports';
import { PayloadTooLargeError } from '../dispatch';
import { UnsupportedMediaTypeError, mediaType } from './body';

export const DEFAULT_MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
const MAX_FILES_PER_UPLOAD = 100;

/** Keeps only the last path component and drops control characters; '' when nothing usable is left. */
export function sanitizeUploadName(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\x00-\x1f\x7f]/g, '').trim();
  return base === '.' || base === '..' ? '' : base;
}

interface ReceivedFile {
  name: string;
  path: string;
}

export async function handleUpload(
  core: FolioCore,
  req: IncomingMessage,
  taskId: string,
  maxFileBytes: number,
): Promise<FileEntry[]> {
  if (mediaType(req) !== 'multipart/form-data') throw new UnsupportedMediaTypeError('Uploads must be multipart/form-data');
  const dir = await mkdtemp(join(tmpdir(), 'folio-upload-'));
  try {
    const files = await receiveWithinQuota(core, req, dir, maxFileBytes);
    if (files.length === 0) throw new ValidationError('The upload contains no files');
    return await core.addUploadedFiles(taskId, files);
  } finally {
    // Retries: on a failed upload a temp file may still be closing while the folder is removed.
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** Files sent as multipart to a library (`POST /v1/projects/:project_id/files`, issue 14). */
export async function handleLibraryUpload(core: FolioCore, req: IncomingMessage, library: LibraryId, maxFileBytes: number): Promise<LibraryFile[]> {
  if (mediaType(req) !== 'multipart/form-data') throw new UnsupportedMediaTypeError('Uploads must be multipart/form-data');
  const dir = await mkdtemp(join(tmpdir(), 'folio-library-'));
  try {
    // Not cut at the allowance: a file the library already has (the same bytes) counts nothing, which
    // only its hash, once it is in, can tell; the quotas are checked then.
    const files = await receiveFiles(req, dir, maxFileBytes);
    if (files.length === 0) throw new ValidationError('The upload contains no files');
    return await core.addUploadedLibraryFiles(library, files);
  } finally {
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** One .pptx/.potx sent as multipart (`POST /v1/templates`), imported as a template. */
export async function handleTemplateUpload(core: FolioCore, req: IncomingMessage, maxFileBytes: number): Promise<TemplateSummary> {
  if (mediaType(req) !== 'multipart/form-data') throw new UnsupportedMediaTypeError('Uploads must be multipart/form-data');
  const dir = await mkdtemp(join(tmpdir(), 'folio-template-'));
  try {
    const files = await receiveFiles(req, dir, maxFileBytes);
    const [file] = files;
    if (!file || files.length > 1) throw new ValidationError('Send exactly one .pptx or .potx file');
    return await core.importUploadedTemplate(file);
  } finally {
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

/**
 * Streams every file part into `dir`. Settles exactly once, and only after every temp file is
 * closed, so the caller can remove `dir`. Each stream gets an error handler the moment it exists:
 * busboy destroys unfinished file streams with an error when the body ends early, and an
 * unhandled one would take the whole process down.
 */
/** Thrown by receiveFiles when the files together pass `maxTotalBytes`: the quota says why. */
class OverAllowance extends Error {
  constructor(readonly seen: number) {
    super(`The upload passed its allowance at ${seen} bytes`);
  }
}

/** receiveFiles, stopped at the tenant's allowance (team service) with the quota's own message. */
async function receiveWithinQuota(core: FolioCore, req: IncomingMessage, dir: string, maxFileBytes: number): Promise<ReceivedFile[]> {
  const allowance = (await core.uploadQuota?.allowance()) ?? null;
  try {
    return await receiveFiles(req, dir, maxFileBytes, allowance ?? Number.POSITIVE_INFINITY);
  } catch (err) {
    if (err instanceof OverAllowance && core.uploadQuota) return core.uploadQuota.refuse(err.seen);
    throw err;
  }
}

function receiveFiles(req: IncomingMessage, dir: string, maxFileBytes: number, maxTotalBytes = Number.POSITIVE_INFINITY): Promise<ReceivedFile[]> {
  return new Promise((resolve, reject) => {
    // Required at the first upload rather than with the server, which should answer as soon as it starts.
    const busboy = createRequire(import.meta.url)('busboy') as typeof Busboy;
    let parser: Busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // Browsers send raw UTF-8 in `filename="..."`; busboy's default (latin1) would garble 中文.
        defParamCharset: 'utf8',
        limits: { fileSize: maxFileBytes, files: MAX_FILES_PER_UPLOAD, fields: 20, fieldSize: 4096, parts: MAX_FILES_PER_UPLOAD + 20 },
      });
    } catch {
      // Missing or malformed boundary / content type: busboy refuses to start.
      reject(new ValidationError('Malformed multipart request'));
      return;
    }
    const received: ReceivedFile[] = [];
    const writes: Promise<void>[] = [];
    const open = new Set<Readable>();
    let failure: Error | null = null;
    let done = false;
    let total = 0;
    const fail = (error: Error) => {
      failure ??= error;
    };
    /** `abort`: stop the files still being written (error paths only; on success they are finishing). */
    const finish = (abort: boolean) => {
      if (done) return;
      done = true;
      req.unpipe(parser);
      // With an error: pipeline() waits forever for 'end' from a source destroyed without one
      // after it had already received its last chunk.
      if (abort) for (const stream of open) stream.destroy(failure ?? new Error('Upload stopped'));
      void Promise.allSettled(writes).then(() => (failure === null ? resolve(received) : reject(failure)));
    };

    parser.on('file', (_field, stream, info) => {
      const name = sanitizeUploadName(info.filename);
      if (done || failure !== null || name === '') {
        if (name === '') fail(new ValidationError('Every uploaded file needs a name'));
        stream.on('error', ignore).resume();
        return;
      }
      // Stored under an index, not the sent name: the name is data for the core, not a path here.
      const path = join(dir, String(received.length));
      received.push({ name, path });
      open.add(stream);
      stream.on('limit', () => fail(new PayloadTooLargeError(`File ${name} exceeds ${maxFileBytes} bytes`)));
      stream.on('data', (chunk: Buffer) => {
        total += chunk.length;
        // Past the tenant's allowance the rest is not read: the quota's answer does not depend on it.
        if (total > maxTotalBytes && !done) {
          fail(new OverAllowance(total));
          finish(true);
        }
      });
      writes.push(
        pipeline(stream, createWriteStream(path))
          // A source stream the parser destroyed means a truncated body; otherwise the disk write failed.
          .catch((error: unknown) => fail(stream.errored ? malformed() : asError(error)))
          .finally(() => open.delete(stream)),
      );
    });
    parser.on('filesLimit', () => fail(new PayloadTooLargeError(`At most ${MAX_FILES_PER_UPLOAD} files per upload`)));
    parser.on('partsLimit', () => fail(new PayloadTooLargeError('Too many parts in the upload')));
    // Everything busboy itself reports (bad part header, NUL bytes, body cut short) is the
    // sender's malformed input, never a fault of the server.
    parser.on('error', () => {
      fail(malformed());
      finish(true);
    });
    parser.on('close', () => finish(false));
    req.on('error', (error) => {
      fail(new ValidationError(`Upload interrupted: ${error.message}`));
      finish(true);
    });
    req.on('close', () => {
      if (req.complete) return;
      fail(new ValidationError('Upload aborted by the client'));
      finish(true);
    });
    req.pipe(parser);
  });
}

function malformed(): ValidationError {
  return new ValidationError('Malformed multipart request');
}

function ignore(): void {}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
