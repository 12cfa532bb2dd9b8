// Structured logs for the service: one JSON object per line (what log shippers parse), and one
// line per HTTP request. Only fields named here are written: never headers, bodies or query
// strings, so a token in a header or a `?token=` cannot reach the log.
import { randomUUID } from 'node:crypto';

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

export function logRequest(log: Logger, entry: RequestLogEntry): void {
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
  if (entry.status >= 500) log.error(fields);
  else if (entry.status >= 400 && entry.status !== 404) log.warn(fields);
  else log.info(fields);
}
