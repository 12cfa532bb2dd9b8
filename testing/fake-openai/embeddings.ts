// The fake server's /v1/embeddings: deterministic vectors from hashed character unigrams and bigrams
// (case-folded, whitespace ignored), L2-normalized, so texts sharing words or CJK characters are
// close and unrelated texts are nearly orthogonal: enough for tests of ranking and fusion.

export const FAKE_EMBEDDING_DIMENSIONS = 256;

function hash(s: string): number {
  // FNV-1a, 32 bits.
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function fakeEmbedding(text: string, dimensions = FAKE_EMBEDDING_DIMENSIONS): number[] {
  const v = new Array<number>(dimensions).fill(0);
  const chars = [...text.toLowerCase().replace(/\s+/gu, '')];
  chars.forEach((ch, i) => {
    const grams = [ch, i + 1 < chars.length ? ch + (chars[i + 1] ?? '') : null];
    for (const g of grams) {
      if (g === null) continue;
      const h = hash(g);
      v[h % dimensions] = (v[h % dimensions] ?? 0) + ((h >>> 16) & 1 ? 1 : -1);
    }
  });
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

/** The OpenAI answer shape for `input` (a string or an array of strings); null: the body is not one. */
export function fakeEmbeddingsAnswer(body: unknown): Record<string, unknown> | null {
  if (typeof body !== 'object' || body === null) return null;
  const { input, model, dimensions } = body as { input?: unknown; model?: unknown; dimensions?: unknown };
  const texts = typeof input === 'string' ? [input] : Array.isArray(input) && input.every((t) => typeof t === 'string') ? (input) : null;
  if (texts === null || texts.length === 0) return null;
  const dims = typeof dimensions === 'number' && Number.isInteger(dimensions) && dimensions > 0 && dimensions <= 4096 ? dimensions : FAKE_EMBEDDING_DIMENSIONS;
  return {
    object: 'list',
    model: typeof model === 'string' ? model : 'fake-embedding',
    data: texts.map((t, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(t, dims) })),
    usage: { prompt_tokens: texts.join('').length, total_tokens: texts.join('').length },
  };
}
