// Structured logs for the service: one JSON object per line (what log shippers parse), and one
// line per HTTP request. Only fields named here are written: never headers, bodies or query
// strings, so a token in a header or a `?token=` cannot reach the log. What a caller chose (a path,
// a request id, an internal error's text) is scrubbed of the request's secrets: the model keys it
// brought and its tenant's stored keys, the list the run's stream scrubber also uses.
import { randomUUID } from 'node:crypto';
import { scrub, scrubDeep } from '../net/secret-scrub';

export type LogLevel = 'info' | 'warn' | 'error';
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** What the core can log through, later; the desktop keeps its own console logging. */
export interface Logger {
  info(fields: LogFields): void;
  warn(fields: LogFields): void;
  error(fields: LogFields): void;
}

export function createJsonLogger(write: (line: string) => void = (line) => process.stdout.write(`${line}\n`), now: () => number = Date.now): Logger {
  const emit = (level: LogLevel, fields: LogFields) => {
    // time and level first and not overridable: every line sorts and filters the same way.
    write(JSON.stringify({ ...fields, time: new Date(now()).toISOString(), level }, orderKeys));
  };
  return {
    info: (fields) => emit('info', fields),
    warn: (fields) => emit('warn', fields),
    error: (fields) => emit('error', fields),
  };
}

function orderKeys(this: unknown, key: string, value: unknown): unknown {
  if (key !== '' || value === null || typeof value !== 'object') return value;
  const { time, level, ...rest } = value as Record<string, unknown>;
  return { time, level, ...rest };
}

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A proxy's or platform's id is kept so one request can be followed across systems; anything odd is replaced. */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

export interface RequestLogEntry {
  requestId: string;
  method: string;
  /** The matched route pattern (`/v1/tasks/:task_id`) or, unmatched, the path without its query. */
  route: string;
  status: number;
  ms: number;
  tenant?: string;
  user?: string;
  taskId?: string;
  runId?: string;
  errorCode?: string;
}

/** The fields with every secret (and its encoded forms) replaced. */
export function scrubLogFields(fields: LogFields, secrets: readonly string[]): LogFields {
  return secrets.length === 0 ? fields : scrubDeep(fields, secrets);
}

/** An internal error as the log may show it: its name, message and stack scrubbed of the secrets. */
export function scrubbedError(error: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return error;
  if (!(error instanceof Error)) return scrub(String(error), secrets);
  const copy = new Error(scrub(error.message, secrets));
  copy.name = scrub(error.name, secrets);
  copy.stack = error.stack === undefined ? undefined : scrub(error.stack, secrets);
  return copy;
}

export function logRequest(log: Logger, entry: RequestLogEntry, secrets: readonly string[] = []): void {
  const fields: LogFields = {
    msg: 'request',
    request_id: entry.requestId,
    method: entry.method,
    route: entry.route,
    status: entry.status,
    ms: Math.round(entry.ms),
    tenant: entry.tenant,
    user: entry.user,
    task_id: entry.taskId,
    run_id: entry.runId,
    error: entry.errorCode,
  };
  const safe = scrubLogFields(fields, secrets);
  if (entry.status >= 500) log.error(safe);
  else if (entry.status >= 400 && entry.status !== 404) log.warn(safe);
  else log.info(safe);
}
