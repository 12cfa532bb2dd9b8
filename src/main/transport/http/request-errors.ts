// The HTTP layer's own refusals (before any core method runs) and the small request parsers the
// routes share.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Id } from '../../../shared/contract/entities';
import type { MethodName } from '../../../shared/contract/methods';
import { FolioError, ValidationError, formatZodError, toErrorShape } from '../../../shared/errors';
import { discardRequestBody } from './body';
import { sendJson } from './respond';


export class UnauthorizedError extends FolioError {
  constructor() {
    super('unauthorized', 'Missing or invalid bearer token', { name: 'UnauthorizedError' });
  }
}

export class ForbiddenHostError extends FolioError {
  constructor() {
    super('forbidden', 'Host not allowed', { name: 'ForbiddenError' });
  }
}

export class UnavailableError extends FolioError {
  constructor(message: string) {
    super('unavailable', message, { name: 'UnavailableError' });
  }
}

/** Routes that act for the whole service, not one person's work: an admin claim in the token. */
export const ADMIN_METHODS: ReadonlySet<MethodName> = new Set<MethodName>(['probeModel']);

export class AdminOnlyError extends FolioError {
  constructor() {
    super('forbidden', 'This route is for administrators: the X-Folio-User token needs the claim folio_admin: true', { name: 'AdminOnlyError' });
  }
}

class MethodNotAllowedError extends FolioError {
  constructor(method: string) {
    super('unsupported', `Method ${method.slice(0, 10)} not allowed here`, { name: 'MethodNotAllowedError' });
  }
}

/** `rate_limited` (and any error that knows when to come back) tells the client when to retry. */
export function retryAfterHeader(error: unknown): Record<string, string> {
  if (error instanceof FolioError && 'retryAfterSeconds' in error && typeof error.retryAfterSeconds === 'number') {
    return { 'Retry-After': String(Math.max(1, Math.ceil(error.retryAfterSeconds))) };
  }
  return {};
}

export function sendMethodNotAllowed(req: IncomingMessage, res: ServerResponse, method: string, allow: string[]): void {
  discardRequestBody(req);
  sendJson(res, 405, { error: toErrorShape(new MethodNotAllowedError(method)) }, { Allow: allow.join(', ') });
}

export function parseId(field: string, value: string | undefined): string {
  const parsed = Id.safeParse(value);
  if (!parsed.success) throw new ValidationError(`${field}: ${formatZodError(parsed.error)}`);
  return parsed.data;
}

/** Repeated keys become arrays, which the contract's string fields then reject. */
export function parseQuery(search: string): Record<string, string | string[]> {
  // No prototype: a key like `__proto__` must stay a plain (and then rejected) field.
  const query = Object.create(null) as Record<string, string | string[]>;
  for (const [key, value] of new URLSearchParams(search)) {
    const existing = query[key];
    if (existing === undefined) query[key] = value;
    else query[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return query;
}
