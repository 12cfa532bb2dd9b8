// Reads a JSON request body with a size cap. The body is never logged or echoed back.
import type { IncomingMessage } from 'node:http';
import { FolioError, ValidationError } from '../../../shared/errors';
import { PayloadTooLargeError } from '../dispatch';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export class UnsupportedMediaTypeError extends FolioError {
  constructor(message: string) {
    super('unsupported', message, { name: 'UnsupportedMediaTypeError' });
  }
}

/** The media type of a request without parameters, lower-cased ('' when absent). */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * Throws PayloadTooLargeError as soon as the declared or received size exceeds `maxBytes`. The
 * rest of an oversized body is left to the caller (see discardRequestBody): destroying the request
 * here would reset the connection before the 413 reaches the client.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    return Promise.reject(new PayloadTooLargeError(`Request body exceeds ${maxBytes} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        reject(new PayloadTooLargeError(`Request body exceeds ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onClose = () => {
      cleanup();
      reject(new Error('Request closed before its body was complete'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** Lets an unread body drain so the error response can still be delivered. */
export function discardRequestBody(req: IncomingMessage): void {
  if (!req.readableEnded) req.resume();
}

/** An empty body is `{}`; a non-empty one must be `application/json` holding an object. */
export async function readJsonObject(req: IncomingMessage, maxBytes: number): Promise<Record<string, unknown>> {
  const raw = await readBody(req, maxBytes);
  if (raw.length === 0) return {};
  if (mediaType(req) !== 'application/json') throw new UnsupportedMediaTypeError('Request body must be application/json');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ValidationError('Malformed JSON body');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ValidationError('JSON body must be an object');
  }
  return parsed as Record<string, unknown>;
}
