// The one HTTP call a search makes. The backend URL is the person's own setting and is trusted like a
// model profile's api_base (a SearXNG on 127.0.0.1 or the LAN must work), so there is no address
// policy here, unlike web_fetch; only a time limit, a size limit and errors that name the cause.
import { outboundFetch } from '../../net/outbound';
import type { OutboundAudit } from '../../net/outbound-audit';
import { SearchError } from './types';

export const SEARCH_TIMEOUT_MS = 15_000;
export const SEARCH_MAX_BYTES = 2 * 1024 * 1024;

export interface SearchHttpOptions {
  outbound: OutboundAudit | null;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxBytes?: number;
  /** Names the setting in error messages, e.g. "the Brave key (BRAVE_API_KEY)". */
  keyLabel: string;
  backendLabel: string;
}

async function readCapped(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return '';
  const reader: ReadableStreamDefaultReader<Uint8Array> = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    total += chunk.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new SearchError('malformed', `The search backend sent more than ${maxBytes / 1024 / 1024} MB; that is not a search result page.`);
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function statusError(status: number, statusText: string, body: string, opts: SearchHttpOptions): SearchError {
  const detail = body.replace(/\s+/gu, ' ').trim().slice(0, 300);
  const suffix = detail ? `: ${detail}` : '';
  if (status === 401 || status === 403) {
    return new SearchError(
      'auth',
      `${opts.backendLabel} refused the request (HTTP ${status} ${statusText})${suffix}. Check ${opts.keyLabel} in Settings → Web search` +
        (opts.backendLabel === 'SearXNG' ? ', and that the instance allows the JSON format (search.formats in its settings.yml).' : '.'),
    );
  }
  if (status === 429) return new SearchError('rate_limited', `${opts.backendLabel} says too many requests (HTTP 429)${suffix}. Wait a moment or check the plan's quota.`);
  return new SearchError('http', `${opts.backendLabel} answered HTTP ${status} ${statusText}${suffix}.`);
}

/** Sends the request and returns the parsed JSON body, or throws a SearchError saying what went wrong. */
export async function fetchSearchJson(url: string, init: RequestInit, opts: SearchHttpOptions): Promise<unknown> {
  const timeoutMs = opts.timeoutMs ?? SEARCH_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([deadline, opts.signal]) : deadline;
  let text: string;
  let res: Response;
  try {
    res = await outboundFetch('web_search', opts.outbound)(url, { ...init, signal, redirect: 'follow' });
    text = await readCapped(res, opts.maxBytes ?? SEARCH_MAX_BYTES);
  } catch (err) {
    if (err instanceof SearchError) throw err;
    if (deadline.aborted) throw new SearchError('timeout', `${opts.backendLabel} did not answer within ${timeoutMs / 1000} s.`);
    if (opts.signal?.aborted) throw new SearchError('network', 'The search was cancelled.');
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : err instanceof Error ? `: ${err.message}` : '';
    throw new SearchError('network', `Could not reach ${opts.backendLabel} at ${new URL(url).origin}${cause}. Check its URL in Settings → Web search.`);
  }
  if (!res.ok) throw statusError(res.status, res.statusText, text, opts);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SearchError('malformed', `${opts.backendLabel} did not send JSON (${text.slice(0, 80).replace(/\s+/gu, ' ')}…).`);
  }
}
