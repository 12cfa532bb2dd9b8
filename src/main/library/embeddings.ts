// The embedding client: any OpenAI-compatible `POST {base}/embeddings`. Plain fetch rather than the
// openai SDK, so there is one timeout we own and no hidden retries: a search must answer quickly
// with text alone when the endpoint is slow, and the backfill retries on its own schedule.
import { outboundFetch } from '../net/outbound';
import type { OutboundAudit } from '../net/outbound-audit';
import { z } from 'zod';
import type { Embedder } from './search';

export const EMBED_TIMEOUT_MS = 15_000;
/** Characters of a page sent for embedding: endpoints refuse inputs over their token limit (8k for most). */
export const EMBED_MAX_CHARS = 6_000;

export type EmbeddingErrorKind = 'timeout' | 'network' | 'http' | 'rate_limited' | 'bad_response';

export class EmbeddingError extends Error {
  readonly kind: EmbeddingErrorKind;
  readonly status: number | null;
  constructor(kind: EmbeddingErrorKind, message: string, status: number | null = null, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmbeddingError';
    this.kind = kind;
    this.status = status;
  }
}

export interface EmbeddingProfile {
  /** e.g. https://api.openai.com/v1 (the path before /embeddings). */
  baseUrl: string;
  model: string;
  apiKey: string | null;
  /** Asked of models that can shorten their vectors (text-embedding-3-*); null: the model's own. */
  dimensions: number | null;
}

const Answer = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()) })),
});

/** The name pages' vectors are stored under: a change of model or dimensions means re-embedding. */
export function embeddingSpace(profile: Pick<EmbeddingProfile, 'model' | 'dimensions'>): string {
  return profile.dimensions === null ? profile.model : `${profile.model}@${profile.dimensions}`;
}

function scrub(text: string, apiKey: string | null): string {
  return apiKey && apiKey.length >= 8 ? text.split(apiKey).join('•••') : text;
}

function endpoint(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/u, '')}/embeddings`;
}

/** The endpoint's own words, cut short, with the key removed should it be echoed back. */
async function errorMessage(res: Response, apiKey: string | null): Promise<string> {
  const body = scrub(await res.text().catch(() => ''), apiKey);
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') return parsed.error.message.slice(0, 300);
  } catch {
    // not JSON: the start of the text is the best we have
  }
  return body.slice(0, 300) || res.statusText;
}

/** `outbound`: who the requests are charged to (the team service's audit rows), null on the desktop; `fetch` replaces the network (tests). */
export function createEmbedder(profile: EmbeddingProfile, opts: { timeoutMs?: number; fetch?: typeof fetch; outbound: OutboundAudit | null }): Embedder {
  const doFetch = opts.fetch ?? outboundFetch('embeddings', opts.outbound);
  const timeoutMs = opts.timeoutMs ?? EMBED_TIMEOUT_MS;
  return {
    model: embeddingSpace(profile),
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      const deadline = AbortSignal.timeout(timeoutMs);
      const combined = signal ? AbortSignal.any([deadline, signal]) : deadline;
      const body: Record<string, unknown> = { model: profile.model, input: texts.map((t) => t.slice(0, EMBED_MAX_CHARS)), encoding_format: 'float' };
      if (profile.dimensions !== null) body.dimensions = profile.dimensions;
      let res: Response;
      let json: unknown;
      try {
        res = await doFetch(endpoint(profile.baseUrl), {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(profile.apiKey ? { authorization: `Bearer ${profile.apiKey}` } : {}) },
          body: JSON.stringify(body),
          signal: combined,
        });
        if (!res.ok) {
          const message = `embeddings endpoint answered ${res.status}: ${await errorMessage(res, profile.apiKey)}`;
          throw new EmbeddingError(res.status === 429 ? 'rate_limited' : 'http', message, res.status);
        }
        json = await res.json();
      } catch (err) {
        if (err instanceof EmbeddingError) throw err;
        if (signal?.aborted) throw err;
        if (deadline.aborted) throw new EmbeddingError('timeout', `embeddings endpoint did not answer within ${Math.round(timeoutMs / 1000)} s`, null, { cause: err });
        if (err instanceof SyntaxError) throw new EmbeddingError('bad_response', 'embeddings endpoint answered with invalid JSON', null, { cause: err });
        throw new EmbeddingError('network', `embeddings endpoint unreachable: ${err instanceof Error ? err.message : String(err)}`, null, { cause: err });
      }
      const parsed = Answer.safeParse(json);
      if (!parsed.success) throw new EmbeddingError('bad_response', 'embeddings endpoint answered without data[].embedding');
      const vectors = new Array<Float32Array | undefined>(texts.length);
      for (const item of parsed.data.data) if (item.index < texts.length) vectors[item.index] = Float32Array.from(item.embedding);
      if (vectors.some((v) => v === undefined)) throw new EmbeddingError('bad_response', `embeddings endpoint returned ${parsed.data.data.length} vectors for ${texts.length} inputs`);
      const dims = vectors[0]?.length ?? 0;
      if (dims === 0 || vectors.some((v) => v?.length !== dims)) throw new EmbeddingError('bad_response', 'embeddings endpoint returned vectors of different lengths');
      return vectors as Float32Array[];
    },
  };
}
