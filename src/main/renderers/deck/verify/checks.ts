// The rendered-slide checks: from the words found on one page and the boxes the layout planned for
// that slide, the problems a person would see. Each word is reported once, under the worst thing
// that happened to it: off the slide, else in the footer band, else outside its box.
import { type QualityIssue } from '../../../../shared/specs/deck';
import { bounds, CONTAIN_TOLERANCE, containsPoint, expand, matchWords, type BoxWords } from './match';
import { type DoubleGap, type RenderedWord } from './pdf-words';
import { type PlannedBox, type PlannedBoxRole, type PlannedSlide, type Rect } from './types';

/** How far (inches) a glyph may pass a line before it counts as across it. */
export const EDGE_TOLERANCE = CONTAIN_TOLERANCE;
/** A title on more lines than this is too long to read at a glance. */
export const MAX_TITLE_LINES = 2;
/** Content (text, charts, tables, pictures) must span at least this share of the body region. */
export const MIN_FILL = 1 / 3;
/** Pictures are shown at 96 px per inch; more than this many times their pixel size looks soft. */
export const MAX_UPSCALE = 1.5;
export const SCREEN_DPI = 96;
/** Baselines closer than this share of the font size are one line. */
const SAME_BASELINE_EM = 0.3;

const TEXT_ROLES: ReadonlySet<PlannedBoxRole> = new Set(['title', 'body', 'caption', 'label', 'footer', 'number']);
const VISUAL_ROLES: ReadonlySet<PlannedBoxRole> = new Set(['chart', 'table', 'image']);
const FOOTER_ROLES: ReadonlySet<PlannedBoxRole> = new Set(['footer', 'number']);
/** What does not count as content when measuring how full a slide is. */
const NOT_CONTENT: ReadonlySet<PlannedBoxRole> = new Set(['title', 'footer', 'number', 'decoration']);

export interface SlideFrame {
  size: { w: number; h: number };
  footerTop: number;
  /**
   * Token keys of text the master and layouts draw on every slide themselves (an imported template's
   * "Confidential", a department name): no Folio box holds it, and it is not the deck's to fix.
   */
  fixedText?: readonly { keys: ReadonlySet<string>; rect: Rect }[];
}

/** Renderers place a text box's glyphs a little off its frame (insets, autofit): a fixed text's words count within this. */
const FIXED_SLACK_IN = 0.05;

const inch = (v: number): string => `${v.toFixed(1)} in`;

function wordCount(n: number): string {
  return n === 1 ? '1 word' : `${n} words`;
}

function quote(words: readonly string[], max = 6): string {
  const shown = words.slice(0, max).join(' ');
  return `"${shown}${words.length > max ? ' …' : ''}"`;
}

function boxName(box: PlannedBox | null): string {
  if (!box) return 'unplanned text';
  return box.id === box.role ? `the ${box.role}` : `${box.role} "${box.id}"`;
}

function intersection(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const w = Math.min(a.x + a.w, b.x + b.w) - x;
  const h = Math.min(a.y + a.h, b.y + b.h) - y;
  return w > 0 && h > 0 ? { x, y, w, h } : null;
}

/** Overlap deeper than the tolerance on both axes (glyph boxes of stacked lines may graze). */
function collides(a: Rect, b: Rect): Rect | null {
  const hit = intersection(a, b);
  return hit && hit.w > EDGE_TOLERANCE && hit.h > EDGE_TOLERANCE ? hit : null;
}

/** Number of distinct baselines among `words`. */
export function lineCount(words: readonly RenderedWord[]): number {
  const sorted = [...words].sort((a, b) => a.baseline - b.baseline);
  let lines = 0;
  let last = -Infinity;
  for (const w of sorted) {
    if (w.baseline - last > SAME_BASELINE_EM * w.size) lines += 1;
    last = w.baseline;
  }
  return lines;
}

interface Placement {
  off: RenderedWord[];
  footer: RenderedWord[];
  outside: RenderedWord[];
}

function place(words: readonly RenderedWord[], box: PlannedBox | null, frame: SlideFrame): Placement {
  const t = EDGE_TOLERANCE;
  const result: Placement = { off: [], footer: [], outside: [] };
  for (const w of words) {
    if (w.x < -t || w.y < -t || w.x + w.w > frame.size.w + t || w.y + w.h > frame.size.h + t) result.off.push(w);
    else if (!(box && FOOTER_ROLES.has(box.role)) && w.y + w.h > frame.footerTop + t) result.footer.push(w);
    else if (box && (w.x < box.x - t || w.y < box.y - t || w.x + w.w > box.x + box.w + t || w.y + w.h > box.y + box.h + t)) result.outside.push(w);
  }
  return result;
}

function whereOutside(words: readonly RenderedWord[], box: PlannedBox): string {
  const b = bounds(words);
  if (!b) return '';
  const t = EDGE_TOLERANCE;
  const sides: string[] = [];
  if (b.y + b.h > box.y + box.h + t) sides.push(`down to ${inch(b.y + b.h)} (the box ends at ${inch(box.y + box.h)})`);
  if (b.y < box.y - t) sides.push(`up to ${inch(b.y)} (the box starts at ${inch(box.y)})`);
  if (b.x + b.w > box.x + box.w + t) sides.push(`right to ${inch(b.x + b.w)} (the box ends at ${inch(box.x + box.w)})`);
  if (b.x < box.x - t) sides.push(`left to ${inch(b.x)} (the box starts at ${inch(box.x)})`);
  return sides.join(', ');
}

type Say = (kind: QualityIssue['kind'], text: string) => void;

interface Checked extends BoxWords {
  /** Words not already reported as off the slide or in the footer band. */
  onSlide: RenderedWord[];
}

function textIssues(entry: Pick<BoxWords, 'words' | 'missing'> & { box: PlannedBox | null }, frame: SlideFrame, say: Say): RenderedWord[] {
  const { box } = entry;
  const name = boxName(box);
  const placed = place(entry.words, box, frame);
  const gone = placed.off.length + entry.missing.length;
  if (gone > 0) {
    const words = [...placed.off.map((w) => w.text), ...entry.missing];
    say('off_slide', `${name} loses ${wordCount(gone)} off the slide, from ${quote(words)}: they are not shown; shorten the text or split the slide`);
  }
  if (placed.footer.length > 0) {
    say('in_footer', `${name} has ${wordCount(placed.footer.length)} below the footer line at ${inch(frame.footerTop)} (${quote(placed.footer.map((w) => w.text))}); shorten the text or split the slide`);
  }
  if (box && placed.outside.length > 0) {
    say('outside_box', `${name} has ${wordCount(placed.outside.length)} outside its box (${quote(placed.outside.map((w) => w.text))}), ${whereOutside(placed.outside, box)}; shorten the text or give it more room`);
  }
  const reported = new Set([...placed.off, ...placed.footer]);
  return entry.words.filter((w) => !reported.has(w));
}

/** Text of two boxes drawn over each other (words already reported off the slide or in the footer are not counted again). */
function overlapIssues(entries: readonly Checked[], say: Say): void {
  const texts = entries.filter((e) => TEXT_ROLES.has(e.box.role) && e.onSlide.length > 0);
  for (let i = 0; i < texts.length; i += 1) {
    const a = texts[i];
    if (!a) continue;
    for (const b of texts.slice(i + 1)) {
      const hit = a.onSlide.flatMap((wa) => b.onSlide.map((wb) => collides(wa, wb))).find((r) => r !== null);
      if (hit) say('overlap', `the text of ${boxName(a.box)} and ${boxName(b.box)} overlap around (${inch(hit.x)}, ${inch(hit.y)}); shorten one of them or move them apart`);
    }
    // Text running over a chart, table or picture it was not placed on (a caption placed on a
    // picture on purpose is not a collision).
    for (const v of entries.filter((e) => VISUAL_ROLES.has(e.box.role))) {
      if (intersection(a.box, v.box)) continue;
      const hit = a.onSlide.map((w) => collides(w, v.box)).find((r) => r !== null);
      if (hit) say('overlap', `the text of ${boxName(a.box)} runs over ${boxName(v.box)} around (${inch(hit.x)}, ${inch(hit.y)}); shorten the text or give it more room`);
    }
  }
}

function titleIssues(entries: readonly BoxWords[], say: Say): void {
  for (const e of entries.filter((x) => x.box.role === 'title')) {
    const lines = lineCount(e.words);
    if (lines <= MAX_TITLE_LINES) continue;
    const chars = [...(e.box.text ?? '')].length;
    const target = Math.max(1, Math.floor((chars * MAX_TITLE_LINES) / lines));
    say('title_lines', `${boxName(e.box)} renders on ${lines} lines (at most ${MAX_TITLE_LINES} read at a glance); shorten it to about ${target} characters and move the rest to the body or the notes`);
  }
}

function fillIssue(slide: PlannedSlide, match: ReturnType<typeof matchWords>, say: Say): void {
  const body = slide.body;
  if (!body || body.w <= 0 || body.h <= 0) return;
  const parts: Rect[] = [];
  for (const e of match.boxes) {
    if (NOT_CONTENT.has(e.box.role)) continue;
    if (VISUAL_ROLES.has(e.box.role)) parts.push(e.box);
    else parts.push(...e.words);
  }
  parts.push(...match.stray);
  const clipped = parts.map((r) => intersection(r, body)).filter((r): r is Rect => r !== null);
  const covered = bounds(clipped);
  const share = covered ? (covered.w * covered.h) / (body.w * body.h) : 0;
  if (share >= MIN_FILL) return;
  say('underfilled', `the content covers ${Math.round(share * 100)}% of the body area (less than ${Math.round(MIN_FILL * 100)}%): it looks unfinished; use larger type or a visual, a layout made for little content (stat, quote, section), or merge it with a neighbouring slide`);
}

/** Plan-only: needs no rendering, so it is reported in estimated mode too. */
function upscaleIssues(slide: PlannedSlide, say: Say): void {
  for (const box of slide.boxes) {
    if (box.role !== 'image' || !box.pixels || box.pixels.w <= 0 || box.pixels.h <= 0) continue;
    const scale = Math.max((box.w * SCREEN_DPI) / box.pixels.w, (box.h * SCREEN_DPI) / box.pixels.h);
    if (scale <= MAX_UPSCALE) continue;
    const needW = Math.ceil((box.w * SCREEN_DPI) / MAX_UPSCALE);
    const needH = Math.ceil((box.h * SCREEN_DPI) / MAX_UPSCALE);
    say(
      'upscaled_image',
      `${boxName(box)} (${box.pixels.w}×${box.pixels.h} px) is shown at ${box.w.toFixed(1)}×${box.h.toFixed(1)} in, enlarged ${scale.toFixed(1)}× and blurry; use a picture of at least ${needW}×${needH} px or show it smaller`,
    );
  }
}

/** Slack around a box when asking whether a gap lies inside it (inches). */
const GAP_BOX_SLACK_IN = 0.05;

/**
 * A gap inside one box of text: both its ends in the box, not across a table's column line. Two
 * boxes side by side (an agenda's number and its item, two table cells) are not a typed space.
 */
function withinOneBox(gap: DoubleGap, boxes: readonly PlannedBox[]): boolean {
  return boxes.some(
    (b) =>
      b.text !== undefined &&
      containsPoint(expand(b, GAP_BOX_SLACK_IN), gap.x, gap.baseline) &&
      containsPoint(expand(b, GAP_BOX_SLACK_IN), gap.xEnd, gap.baseline) &&
      !(b.cuts ?? []).some((c) => c > gap.x && c < gap.xEnd),
  );
}

/** Typed spaces beside LibreOffice's CJK–Latin gap, merged per slide (one cause, one fix). */
function spacingIssues(found: readonly DoubleGap[], boxes: readonly PlannedBox[], say: Say): void {
  const gaps = found.filter((g) => withinOneBox(g, boxes));
  if (gaps.length === 0) return;
  const shown = gaps.slice(0, 3).map((g) => `"${g.before} ${g.after}" (${g.em.toFixed(2)} em)`).join(', ');
  const more = gaps.length > 3 ? ` and ${gaps.length - 3} more` : '';
  say('spacing', `${gaps.length === 1 ? 'a gap' : `${gaps.length} gaps`} between Chinese and Latin text ${gaps.length === 1 ? 'is' : 'are'} a typed space plus LibreOffice's own quarter em: ${shown}${more}; one gap is right`);
}

function sayer(slide: PlannedSlide, issues: QualityIssue[]): Say {
  const prefix = `slide ${slide.number} (spec slides[${slide.sourceIndex}])`;
  return (kind, text) => issues.push({ kind, message: `${prefix}: ${text}` });
}

/** Everything wrong with one rendered slide. */
export function checkRenderedSlide(slide: PlannedSlide, words: readonly RenderedWord[], frame: SlideFrame, doubleGaps: readonly DoubleGap[] = []): QualityIssue[] {
  const issues: QualityIssue[] = [];
  const say = sayer(slide, issues);
  const fixed = frame.fixedText ?? [];
  // A word of the template's own text drawn where the template puts it is not the deck's.
  const own = fixed.length === 0 ? words : words.filter((w) => !fixed.some((f) => f.keys.has(w.key) && containsPoint(expand(f.rect, FIXED_SLACK_IN), w.x + w.w / 2, w.y + w.h / 2)));
  const match = matchWords(slide.boxes, own);
  const checked: Checked[] = match.boxes.map((entry) => ({ ...entry, onSlide: textIssues(entry, frame, say) }));
  if (match.stray.length > 0) textIssues({ box: null, words: match.stray, missing: [] }, frame, say);
  overlapIssues(checked, say);
  titleIssues(match.boxes, say);
  fillIssue(slide, match, say);
  upscaleIssues(slide, say);
  spacingIssues(doubleGaps, slide.boxes, say);
  return issues;
}

/** What can be said without the rendered slide. */
export function checkPlannedSlide(slide: PlannedSlide): QualityIssue[] {
  const issues: QualityIssue[] = [];
  upscaleIssues(slide, sayer(slide, issues));
  return issues;
}
