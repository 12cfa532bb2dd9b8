// Where Chinese words end, so a line breaks between words ("热岛强度 / 等级"), never inside one
// ("热岛强 / 度", "等 / 级"). Chinese has no spaces; a typesetter breaks between characters but
// not inside a word a reader takes in at a glance. jieba (@node-rs/jieba, its dictionary built in)
// segments far better than BudouX's small Chinese model, which splits 午后 and 等级. The dictionary
// takes about a second to load, so it loads at the first Chinese paragraph, once per process. Research terms it
// lacks (数据集, 预训练) are added as a user dictionary (research-words.ts).
import { createRequire } from 'node:module';
import { researchDictionary } from './research-words';

interface JiebaLike {
  cut(text: string, hmm?: boolean | null): string[];
  loadDict(dict: Uint8Array): void;
}

let jieba: JiebaLike | null | undefined;

function load(): JiebaLike | null {
  if (jieba !== undefined) return jieba;
  try {
    const require = createRequire(import.meta.url);
    const { Jieba } = require('@node-rs/jieba') as { Jieba: { withDict(dict: Uint8Array): JiebaLike } };
    const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
    const loaded = Jieba.withDict(dict);
    loaded.loadDict(researchDictionary());
    jieba = loaded;
  } catch {
    // No native build for this platform: every boundary between Han characters stays a break.
    jieba = null;
  }
  return jieba;
}

const HAN = /\p{Script=Han}/u;
const MAX_CACHED = 20_000;
const cache = new Map<string, Set<number> | null>();

/**
 * Code-point offsets inside `text` where a word ends and the next begins, for texts with Han
 * characters; null when no segmenter is available (then any boundary is a word boundary).
 */
export function wordBoundaries(text: string): Set<number> | null {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const j = HAN.test(text) ? load() : null;
  let out: Set<number> | null = null;
  if (j) {
    out = new Set<number>();
    let at = 0;
    for (const word of j.cut(text, true)) {
      at += Array.from(word).length;
      out.add(at);
    }
  }
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(text, out);
  return out;
}
