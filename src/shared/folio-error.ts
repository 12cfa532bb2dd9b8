// The error codes, the one error class and the wire shape without zod: the renderer's first chunk
// needs them before anything else and must not wait for zod to load (errors.ts re-exports all of it
// beside the zod schema of the shape, for everything else).
export const errorCodes = [
  'invalid_input',
  'not_found',
  'conflict',
  'unauthorized',
  'forbidden',
  'payload_too_large',
  'unsupported',
  'schema_too_new',
  'missing_api_key',
  'provider_error',
  'provider_unreachable',
  'rate_limited',
  // A tenant's quota (concurrent runs, tokens per month, storage, upload size) would be exceeded.
  'quota_exceeded',
  // The service is shutting down or not ready; another worker can take the request.
  'unavailable',
  'path_escape',
  'workspace_refused',
  'tool_error',
  'cancelled',
  'database_corrupt',
  'internal',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/** The wire shape `{name, code, message}`; `ErrorShape` in errors.ts is its zod schema. */
export interface ErrorShapeData {
  name: string;
  code: ErrorCode;
  message: string;
}

/** The one error class every layer throws when it means to tell the caller something. */
export class FolioError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; name?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = options?.name ?? 'FolioError';
  }
}

export function fromErrorShape(shape: ErrorShapeData): FolioError {
  return new FolioError(shape.code, shape.message, { name: shape.name });
}

