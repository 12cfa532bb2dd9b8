// Turning a person's (or the model's) search text into terms. User text is never query syntax: each
// store matches every term as a plain substring (SQLite quotes it for FTS5, PostgreSQL escapes it
// for ILIKE), so `*`, `-`, `NEAR`, `AND`, `:` and parentheses are just characters. Balanced double
// quotes keep a phrase together ("ASN.1 syntax").
//
// Both stores' indexes are of trigrams, which can only match strings of 3+ characters; shorter terms
// (common in Chinese: 检索, 模型) are matched by a substring scan instead (store/library-match.ts).
import { isTrigramTerm } from '../store/library-match';

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
    long: all.filter(isTrigramTerm),
    short: all.filter((t) => !isTrigramTerm(t)),
  };
}
