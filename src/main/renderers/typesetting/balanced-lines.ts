// Balanced line breaking, as a typesetter sets a heading or a title that needs a few lines: the deck's
// slide headings and the document's cover title break the same way, so the rule lives here once.
import { NO_LINE_START } from './fonts/line-break';
import { type MeasureStyle, type TextMeasurer } from './text-measurer';

/** The shorter line of a heading broken after a clause is at least this share of the longer. */
const CLAUSE_LINE_SHARE = 0.3;
/** Marks after which a Chinese heading reads best broken: a clause ends there. */
const CLAUSE_END = /[，：；、。！？,:;]$/u;

/**
 * A heading's lines as a typesetter sets them: as many lines as the full width needs, each about as
 * long as the others (the narrowest width that keeps the count), so no word is left alone on the
 * last line ("…融合方法 / 研究" becomes "…预警的 / 多源数据融合方法研究"); and a break after a clause's
 * mark (，：) where one falls near the balanced break.
 */
export function balancedLines(measurer: TextMeasurer, text: string, style: MeasureStyle, maxPt: number, count: number): string[] {
  let lo = maxPt / count;
  let hi = maxPt;
  while (hi - lo > 1) {
    const mid = (lo + hi) / 2;
    if (measurer.wrap(text, style, mid).length <= count) hi = mid;
    else lo = mid;
  }
  const balanced = measurer.wrap(text, style, hi);
  if (count !== 2 || balanced.length !== 2) return balanced.length === count ? balanced : measurer.wrap(text, style, maxPt);
  // Two lines: a break after a clause's mark reads better than an even one inside a phrase
  // ("…检索增强方法：/ 第三阶段进展", not "…的检索 / 增强方法：…"), unless it leaves a stub line.
  const chars = Array.from(text);
  let best: string[] | null = null;
  let bestGap = Infinity;
  for (let i = 1; i < chars.length - 1; i++) {
    const head = chars.slice(0, i).join('');
    const next = chars[i] ?? '';
    // "3,000" and "12:30" are not clauses; nor may a closing mark start the second line.
    if (!CLAUSE_END.test(head) || (/[,:;]$/.test(head) && next !== ' ') || NO_LINE_START.has(next)) continue;
    const tail = chars.slice(i).join('').trimStart();
    const first = head.trimEnd();
    const w1 = measurer.widthPt(first, style);
    const w2 = measurer.widthPt(tail, style);
    if (w1 > maxPt || w2 > maxPt || Math.min(w1, w2) < CLAUSE_LINE_SHARE * Math.max(w1, w2)) continue;
    const gap = Math.abs(w1 - measurer.widthPt(balanced[0] ?? '', style));
    if (gap < bestGap) {
      bestGap = gap;
      best = [first, tail];
    }
  }
  return best ?? balanced;
}
