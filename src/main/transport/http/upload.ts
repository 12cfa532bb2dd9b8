// Multipart uploads (web mode's equivalent of dropping files on the desktop window): each file is
// streamed to a private temp dir, handed to the core, and the temp dir is always removed.
import type { LibraryFile, LibraryId } from '../../../shared/contract/projects';
import { createRequire } from 'node:module';
import type Busboy from 'busboy';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
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

/**
 * Keeps only the last path component and drops control characters; '' when nothing usable is left,
 * including a part that names no file at all (busboy treats an `application/octet-stream` part
 * without `filename` as a file, with `filename` undefined).
 */
export function sanitizeUploadName(name: string | undefined): string {
  if (typeof name !== 'string') return '';
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\x00-\x1f\x7f]/g, '').trim();
  return base === '.' || base === '..' ? '' : base;
}

interface ReceivedFile {
  name: string;
  path: string;
}

export interface UploadLimits {
  maxFileBytes: number;
}

/**
 * The one way a multipart request is received: content type checked, every file part streamed into a
 * private temporary folder, `use` called with the files, and the folder removed whatever happens.
 */
async function withUploadedFiles<T>(core: FolioCore, req: IncomingMessage, limits: UploadLimits, maxTotalBytes: number, use: (files: ReceivedFile[]) => Promise<T>): Promise<T> {
  if (mediaType(req) !== 'multipart/form-data') throw new UnsupportedMediaTypeError('Uploads must be multipart/form-data');
  const dir = await core.makeUploadDir();
  try {
    return await use(await receiveFiles(req, dir, limits.maxFileBytes, maxTotalBytes));
  } finally {
    // Retries: on a failed upload a temp file may still be closing while the folder is removed.
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

export async function handleUpload(core: FolioCore, req: IncomingMessage, taskId: string, limits: UploadLimits): Promise<FileEntry[]> {
  // mediaType first: a non-multipart request must not reach the quota lookup.
  if (mediaType(req) !== 'multipart/form-data') throw new UnsupportedMediaTypeError('Uploads must be multipart/form-data');
  const allowance = (await core.uploadQuota?.allowance()) ?? null;
  try {
    return await withUploadedFiles(core, req, limits, allowance ?? Number.POSITIVE_INFINITY, async (files) => {
      if (files.length === 0) throw new ValidationError('The upload contains no files');
      return core.addUploadedFiles(taskId, files);
    });
  } catch (err) {
    if (err instanceof OverAllowance && core.uploadQuota) return core.uploadQuota.refuse(err.seen);
    throw err;
  }
}

/** Files sent as multipart to a library (`POST /v1/projects/:project_id/files`). */
export async function handleLibraryUpload(core: FolioCore, req: IncomingMessage, library: LibraryId, limits: UploadLimits): Promise<LibraryFile[]> {
  // Not cut at the allowance: a file the library already has (the same bytes) counts nothing, which
  // only its hash, once it is in, can tell; the quotas are checked then.
  return withUploadedFiles(core, req, limits, Number.POSITIVE_INFINITY, async (files) => {
    if (files.length === 0) throw new ValidationError('The upload contains no files');
    return core.addUploadedLibraryFiles(library, files);
  });
}

/** One .pptx/.potx sent as multipart (`POST /v1/templates`), imported as a template. */
export async function handleTemplateUpload(core: FolioCore, req: IncomingMessage, limits: UploadLimits): Promise<TemplateSummary> {
  return withUploadedFiles(core, req, limits, Number.POSITIVE_INFINITY, async (files) => {
    const [file] = files;
    if (!file || files.length > 1) throw new ValidationError('Send exactly one .pptx or .potx file');
    return core.importUploadedTemplate(file);
  });
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

function receiveFiles(req: IncomingMessage, dir: string, maxFileBytes: number, maxTotalBytes: number): Promise<ReceivedFile[]> {
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

    // A listener that throws would throw out of the request's 'data' event and end the process:
    // whatever goes wrong while taking a part is this request's failure, and the part is drained.
    const onFile = (stream: Readable, info: Busboy.FileInfo) => {
      const name = sanitizeUploadName(info.filename);
      if (done || failure !== null || name === '') {
        if (name === '') fail(new ValidationError('Every uploaded file needs a name: send it as filename="..." in the part header'));
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
    };
    parser.on('file', (_field, stream, info) => {
      try {
        onFile(stream, info);
      } catch (error) {
        fail(asError(error));
        stream.on('error', ignore).resume();
        finish(true);
      }
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
