// Turning a person's (or the model's) search text into terms and a safe FTS5 MATCH expression. User
// text is never FTS5 syntax: every term is a quoted string, so `*`, `-`, `NEAR`, `AND`, `:` and
// parentheses are just characters. Balanced double quotes keep a phrase together ("ASN.1 syntax").
//
// The index uses the trigram tokenizer, which can only match strings of 3+ characters; shorter terms
// (common in Chinese: 检索, 模型) are matched by a substring scan instead (see search.ts).

/** Terms shorter than this many characters (code points) cannot be looked up in a trigram index. */
export const TRIGRAM_MIN = 3;
/** More terms than this add little but cost a scan each; the rest are ignored. */
export const MAX_TERMS = 12;

export interface QueryTerms {
  /** Every term, deduplicated case-insensitively, in the order typed. */
  all: string[];
  /** Terms the trigram index can match. */
  long: string[];
  /** Terms of 1–2 characters: matched by substring scan. */
  short: string[];
}

function charLength(s: string): number {
  return [...s].length;
}

/** Splits on whitespace; text inside balanced double quotes stays one term. */
export function parseQuery(query: string): QueryTerms {
  const raw: string[] = [];
  const text = query.normalize('NFC');
  const quoted = /"([^"]*)"/gu;
  let last = 0;
  const pushWords = (s: string) => {
    // A stray quote is a character the person typed, not syntax: drop it rather than search for it.
    for (const w of s.replace(/"/gu, ' ').split(/\s+/u)) if (w !== '') raw.push(w);
  };
  for (const m of text.matchAll(quoted)) {
    pushWords(text.slice(last, m.index));
    const phrase = (m[1] ?? '').trim().replace(/\s+/gu, ' ');
    if (phrase !== '') raw.push(phrase);
    last = m.index + m[0].length;
  }
  pushWords(text.slice(last));

  const seen = new Set<string>();
  const all: string[] = [];
  for (const term of raw) {
    const key = term.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    all.push(term);
    if (all.length === MAX_TERMS) break;
  }
  return {
    all,
    long: all.filter((t) => charLength(t) >= TRIGRAM_MIN),
    short: all.filter((t) => charLength(t) < TRIGRAM_MIN),
  };
}

/** An FTS5 string literal: double quotes inside are doubled, so nothing in it is syntax. */
export function ftsString(term: string): string {
  return `"${term.replace(/"/gu, '""')}"`;
}

/** Every term required (FTS5's implicit AND), or any of them. */
export function ftsMatch(terms: readonly string[], op: 'all' | 'any'): string {
  return terms.map(ftsString).join(op === 'all' ? ' ' : ' OR ');
}

/** A LIKE pattern matching `term` anywhere, with `\` as the escape for %, _ and itself. */
export function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;
}
