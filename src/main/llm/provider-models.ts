// Reads an OpenAI-compatible server's model list (`GET {api_base}/models`) so a person can add it as
// a provider by base URL. On a desktop the base URL is trusted like any profile's api_base (a server
// on the local network is the usual case); the team service checks where it points (net/outbound.ts).
import { outboundFetch } from '../net/outbound';
import type { OutboundAudit } from '../net/outbound-audit';
import { z } from 'zod';
import type { ProviderModel } from '../../shared/contract/setup';
import { FolioError, NotOpenAiCompatibleError, ProviderKeyRejectedError, ProviderUnreachableError } from '../../shared/errors';
import { ANSWER_DEADLINE_MS, answerTimeoutError } from './answer-deadline';

export interface ListModelsOptions {
  apiKey?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Who the request is charged to (the team service's audit rows); null on the desktop. */
  outbound: OutboundAudit | null;
}

/** A model list is small; a body beyond this is not one. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const MAX_MODELS = 2000;

const ModelList = z.object({
  data: z.array(
    z.looseObject({
      id: z.string().min(1).max(200),
      context_length: z.number().int().positive().optional().catch(undefined),
      max_model_len: z.number().int().positive().optional().catch(undefined),
    }),
  ),
});

export async function listProviderModels(apiBase: string, opts: ListModelsOptions): Promise<ProviderModel[]> {
  const url = `${apiBase}/models`;
  const headers: Record<string, string> = { Accept: 'application/json' };
  const key = opts.apiKey?.trim();
  if (key) headers.Authorization = `Bearer ${key}`;
  // A timer of our own (not AbortSignal.timeout) so the whole wait, body included, is one deadline.
  const timeoutMs = opts.timeoutMs ?? ANSWER_DEADLINE_MS;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    let res: Response;
    try {
      res = await (opts.fetch ?? outboundFetch('model_list', opts.outbound))(url, { headers, signal: deadline.signal, redirect: 'follow' });
    } catch (err) {
      // The team service's refusal of the address says why and what to do; it is not "unreachable".
      if (err instanceof FolioError && err.code === 'forbidden') throw err;
      if (deadline.signal.aborted) throw answerTimeoutError(timeoutMs);
      throw new ProviderUnreachableError(`Cannot reach ${url} (${reasonOf(err)}): check the address and that the server is running`);
    }
    if (res.status === 401 || res.status === 403) {
      await res.body?.cancel().catch(() => undefined);
      throw new ProviderKeyRejectedError(
        key ? `${apiBase} rejected the key (${res.status}): check it and paste it again` : `${apiBase} needs an API key (${res.status}): paste the provider's key`,
      );
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new NotOpenAiCompatibleError(
        `${url} answered ${res.status}: is ${apiBase} the OpenAI-compatible base URL? It usually ends in /v1 (e.g. http://127.0.0.1:11434/v1)`,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(await readCapped(res, MAX_BODY_BYTES));
    } catch {
      if (deadline.signal.aborted) throw answerTimeoutError(timeoutMs);
      throw new NotOpenAiCompatibleError(`${url} did not answer with a JSON model list: is ${apiBase} the OpenAI-compatible base URL (often ending in /v1)?`);
    }
    return parseModelList(url, apiBase, body);
  } finally {
    clearTimeout(timer);
  }
}

function parseModelList(url: string, apiBase: string, body: unknown): ProviderModel[] {
  const parsed = ModelList.safeParse(body);
  if (!parsed.success) {
    throw new NotOpenAiCompatibleError(`${url} answered, but not with an OpenAI-style model list ({"data": [{"id": …}]}): is ${apiBase} the right base URL?`);
  }
  const seen = new Set<string>();
  const models: ProviderModel[] = [];
  for (const m of parsed.data.data.slice(0, MAX_MODELS)) {
    if (seen.has(m.id)) continue;
    seen.add(m.id);
    models.push({ id: m.id, context_length: m.context_length ?? m.max_model_len ?? null });
  }
  return models;
}

async function readCapped(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  // Node's web streams are async-iterable; cancelling happens when the loop is left by the throw.
  for await (const value of res.body as unknown as AsyncIterable<Uint8Array>) {
    total += value.byteLength;
    if (total > maxBytes) throw new Error('model list too large');
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The deepest code in the cause chain (ECONNREFUSED, ENOTFOUND), or the timeout, never a stack. */
function reasonOf(err: unknown): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return 'no answer in time';
  let current: unknown = err;
  let code: string | undefined;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if ('code' in current && typeof current.code === 'string') code = current.code;
    current = 'cause' in current ? current.cause : undefined;
  }
  return code ?? (err instanceof Error ? err.message.slice(0, 200) : 'connection failed');
}
