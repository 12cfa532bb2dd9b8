// Errors cross every transport in one shape: {name, code, message}. Never a stack, never a raw object.
import { z } from 'zod';
import { type ErrorCode, errorCodes, FolioError } from './folio-error';

// The zod-free part lives in folio-error.ts, so the renderer's first chunk can throw and read
// errors without loading zod; everything else imports it from here as before.
export { errorCodes, FolioError, fromErrorShape, type ErrorCode } from './folio-error';

export const ErrorShape = z.object({
  name: z.string(),
  code: z.enum(errorCodes),
  message: z.string(),
});
export type ErrorShape = z.infer<typeof ErrorShape>;

export class ValidationError extends FolioError {
  constructor(message: string) {
    super('invalid_input', message, { name: 'ValidationError' });
  }
}

export class NotFoundError extends FolioError {
  constructor(message: string) {
    super('not_found', message, { name: 'NotFoundError' });
  }
}

/**
 * A path that does not name something inside the folder it must stay in: absolute, `..`, a
 * symbolic link leading out, a Unicode look-alike separator. The one error every path check throws.
 */
export class PathEscapeError extends FolioError {
  constructor(message: string) {
    super('path_escape', message, { name: 'PathEscapeError' });
  }
}

/** Turns anything thrown into the wire shape; unknown errors become `internal` without leaking details. */
export function toErrorShape(err: unknown): ErrorShape {
  if (err instanceof FolioError) return { name: err.name, code: err.code, message: err.message };
  const parsed = ErrorShape.safeParse(err);
  if (parsed.success) return parsed.data;
  return { name: 'InternalError', code: 'internal', message: 'An internal error occurred.' };
}

/** Formats zod issues as "path.to.field: message" lines, the form every validation error uses. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

export function formatZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 10)
    .map((issue) => {
      const path = fieldPath(issue.path);
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/**
 * The fields a schema check rejected, as written in the input ("price.input", "slides[2].title"), each
 * once: an unknown key by its own path. Empty when only the whole input was rejected.
 */
export function zodErrorFields(error: z.ZodError): string[] {
  const fields = error.issues.slice(0, 10).flatMap((issue) => (issue.code === 'unrecognized_keys' ? issue.keys.map((key) => fieldPath([...issue.path, key])) : [fieldPath(issue.path)]));
  return [...new Set(fields.filter((f) => f !== ''))];
}

export const httpStatusForCode: Record<ErrorCode, number> = {
  invalid_input: 400,
  not_found: 404,
  conflict: 409,
  unauthorized: 401,
  forbidden: 403,
  payload_too_large: 413,
  unsupported: 415,
  schema_too_new: 500,
  missing_api_key: 400,
  provider_error: 502,
  provider_unreachable: 502,
  rate_limited: 429,
  quota_exceeded: 429,
  unavailable: 503,
  path_escape: 400,
  workspace_refused: 403,
  // A tool-level failure on the request's own input (e.g. LibreOffice cannot convert a broken file):
  // the request was understood but cannot be carried out; not a fault of the server.
  tool_error: 422,
  cancelled: 409,
  // The service is up but its database is not usable until a backup is restored.
  database_corrupt: 503,
  internal: 500,
};

// Errors that name the setting to change

/** No profile can be used: none has a key and no key-less (local) server answered. */
export class NoUsableModelError extends FolioError {
  constructor(message: string) {
    super('missing_api_key', message, { name: 'NoUsableModelError' });
  }
}

/** A profile the person chose (for the task or as the default) needs a key it does not have. */
export class MissingApiKeyError extends FolioError {
  constructor(message: string) {
    super('missing_api_key', message, { name: 'MissingApiKeyError' });
  }
}

/** A server did not answer (a chosen key-less profile's, or a base URL being set up). */
export class ProviderUnreachableError extends FolioError {
  constructor(message: string) {
    super('provider_unreachable', message, { name: 'ProviderUnreachableError' });
  }
}

/** A server gave no answer within the time a check allows (a dead address, a blackholed network). */
export class ProviderTimeoutError extends FolioError {
  constructor(message: string) {
    super('provider_unreachable', message, { name: 'ProviderTimeoutError' });
  }
}

/** The server answered 401/403: the key is wrong or missing. */
export class ProviderKeyRejectedError extends FolioError {
  constructor(message: string) {
    super('provider_error', message, { name: 'ProviderKeyRejectedError' });
  }
}

/** The server answered, but not like an OpenAI-compatible API (`GET /models` → `{data: [{id}]}`). */
export class NotOpenAiCompatibleError extends FolioError {
  constructor(message: string) {
    super('provider_error', message, { name: 'NotOpenAiCompatibleError' });
  }
}

/** Whether an error is fixed in the model setup (the UI then offers a button to it). */
export function isModelSetupError(error: { code: ErrorCode | 'unknown' }): boolean {
  return error.code === 'missing_api_key' || error.code === 'provider_unreachable';
}
