// Bring-your-own model keys, per request: the platform may send a tenant's key with a request
// (`X-Folio-Model-Key: <VARIABLE>=<key>`, the variable a profile's `api_key_env` names). It is
// handed to that request's handlers (their context's key store answers with it first) and to the
// runs it starts (`RunDriverContext.brought`), and to nothing else: it is never written to the
// database, a file or a log (the request log records no headers, and the model client scrubs the
// key it was given from its errors).
import type { IncomingHttpHeaders } from 'node:http';
import { ValidationError } from '../../shared/errors';

export const MODEL_KEY_HEADER = 'x-folio-model-key';

/** `NAME=key`, NAME an environment-variable name; a bad header is a 400 that does not repeat it. */
export function parseModelKeyHeader(value: string | string[] | undefined): ReadonlyMap<string, string> | null {
  if (value === undefined) return null;
  const raw = Array.isArray(value) ? value : [value];
  const keys = new Map<string, string>();
  for (const item of raw) {
    const eq = item.indexOf('=');
    const name = eq > 0 ? item.slice(0, eq).trim() : '';
    const key = eq > 0 ? item.slice(eq + 1).trim() : '';
    if (!/^[A-Z][A-Z0-9_]{0,99}$/.test(name) || key === '' || key.length > 500) {
      throw new ValidationError(`${MODEL_KEY_HEADER}: expected VARIABLE=key, the variable a model profile's api_key_env names`);
    }
    keys.set(name, key);
  }
  return keys;
}

/**
 * Every key the header carries, well-formed or not, for scrubbing from the request's log line: a
 * malformed header is refused, but its key is still the tenant's secret.
 */
export function modelKeyHeaderValues(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const values: string[] = [];
  for (const item of Array.isArray(value) ? value : [value]) {
    values.push(item.trim());
    const eq = item.indexOf('=');
    if (eq >= 0) values.push(item.slice(eq + 1).trim());
  }
  return values.filter((v) => v.length >= 8);
}

/**
 * The keys the request brought, or null. A malformed header gives none here: `checkModelKeyHeader`
 * refuses the request once it is authenticated and routed, so its log line names the tenant and the
 * route like any other.
 */
export function broughtKeys(headers: IncomingHttpHeaders): ReadonlyMap<string, string> | null {
  try {
    return parseModelKeyHeader(headers[MODEL_KEY_HEADER]);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return null;
  }
}

/** Throws the 400 a malformed `X-Folio-Model-Key` gets (the server calls it after authentication). */
export function checkModelKeyHeader(headers: IncomingHttpHeaders): void {
  parseModelKeyHeader(headers[MODEL_KEY_HEADER]);
}
