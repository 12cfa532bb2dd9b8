// The measuring and wrapping both measurers share; they differ only in where one character's
// advance comes from (a font file or the width table). Text is split into script runs exactly as
// the renderer writes them (`splitRunsByScript`), so each character is measured in the face it is
// drawn in, and every change between CJK and Latin adds LibreOffice's autospace, the gap of the
// text's setting (../autospace.ts): in a slide's text box and a document not beside a full-width mark, in a document
// only beside a letter or digit.
import { containsCjk, isCjkChar, isFullWidthMark, LINE_START_BRACKET_TRIM_EM, type LineStartTrim, splitRunsByScript, startsWithOpeningBracket } from '../../../../shared/specs/deck';
import { AUTOSPACE_EM, autospaceBesideLatin, autospaceBesideMarks } from '../autospace';
import { type MeasureStyle, type MetricsSource, type TextMeasurer } from '../text-measurer';
import { breakSegments, NO_LINE_START, spaceSegments, withoutTrailingSpaces } from './line-break';

/** Headroom over the summed advances, for LibreOffice rounding glyph positions to its grid. */
export const SAFETY = 1.01;
/** Colour emoji glyphs are square and a little wider than an em in Noto Color Emoji. */
export const EMOJI_EM = 1.2;
const ELLIPSIS = '…';

export type Script = 'latin' | 'cjk';
/**
 * What a span ends in, for the gap before the next: `mark` is CJK text ending in a full-width mark, `symbol` Latin
 * text ending in something other than a letter or digit (a bracket, a hyphen, a space), beside which Writer puts no gap.
 */
type Ending = Script | 'mark' | 'symbol';

const ZERO_WIDTH = /[\p{Mn}\p{Me}\u200B-\u200F\u2060\uFE00-\uFE0F\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]/u;
const EMOJI = /\p{Emoji_Presentation}/u;
const TRAILING_BEFORE_ELLIPSIS = /[\s,;:，、；：·.。-]+$/u;

/** A number with its unit, or a short relation, and nothing else ("3.5%", "n = 120", "0.8 °C", "12 天"). */
const LONE_QUANTITY = /^(?:\p{L}{1,3} ?[<>=≤≥≈≠] ?)?[-+±−]?[$¥£€￥]?\p{N}[\p{N}.,]*(?: ?(?:%|‰|°[CF]?|℃|\p{L}{1,3}))?$/u;

/**
 * A last line a typesetter would not leave alone: one CJK character, or (in a paragraph with CJK
 * text, whose breaks the drawer writes in) a lone number or relation, each with any closing marks
 * after it ("弱。", "3.5%。", "n = 120。").
 */
function isOrphan(line: string, cjkParagraph: boolean): boolean {
  const chars = Array.from(line);
  let end = chars.length;
  while (end > 0 && NO_LINE_START.has(chars[end - 1] ?? '')) end--;
  const core = chars.slice(0, end);
  const first = core[0] ?? '';
  if (core.length === 1 && isCjkChar(first)) return true;
  return cjkParagraph && core.length > 0 && LONE_QUANTITY.test(core.join(''));
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** What a span of `script` ending in `last` ends in. */
function endingOf(script: Script, last: string): Ending {
  if (script === 'cjk') return isFullWidthMark(last) ? 'mark' : 'cjk';
  return LETTER_OR_DIGIT.test(last) ? 'latin' : 'symbol';
}

interface CharLayout {
  chars: string[];
  /** Advance of each character in em, including the autospace before it when the script changes. */
  ems: number[];
  scripts: Script[];
}

interface Span {
  em: number;
  last: Ending | null;
}

interface SpanCache {
  start: Map<string, Span>;
  latin: Map<string, Span>;
  cjk: Map<string, Span>;
  mark: Map<string, Span>;
  symbol: Map<string, Span>;
}

/** A character that ends text of each kind, so text measured after it joins its run as in the paragraph. */
const PROBE: Record<Ending, string> = { latin: 'a', cjk: '中', mark: '：', symbol: '-' };

/** Stops a long-lived process from keeping every word it ever measured. */
const MAX_CACHED_SPANS = 50_000;

export abstract class ScriptMeasurer implements TextMeasurer {
  /** Spans per style (faces + weight), then per previous script, then per text. */
  private readonly spans = new Map<string, SpanCache>();

  /** Advance of one character (a code point) set in the face of `script`, in em. */
  protected abstract charEm(ch: string, script: Script, style: MeasureStyle): number;
  /** Kerning between two neighbours of one run, in em (added to the second); none by default. */
  protected pairEm(_prev: string, _ch: string, _script: Script, _style: MeasureStyle): number {
    return 0;
  }
  abstract sourceOf(face: string): MetricsSource;
  abstract emojiFace(): string | null;
  blankEmoji(_sequences: readonly string[]): { emoji: string; reason: 'missing' | 'bitmap' }[] {
    return [];
  }

  widthPt(text: string, style: MeasureStyle): number {
    return this.span(text, null, style).em * style.sizePt * SAFETY;
  }

  wrap(text: string, style: MeasureStyle, maxWidthPt: number, lineStarts?: LineStartTrim): string[] {
    const maxEm = maxWidthPt / (style.sizePt * SAFETY);
    /**
     * The room of line `index` when it starts with `start`: half an em more where the slide sets its opening
     * bracket half width (the bracket is drawn at the text's size, and the half em is exact: no headroom on it).
     */
    const roomOf = (index: number, start: string): number =>
      (index === 0 ? lineStarts?.first : lineStarts?.rest) && startsWithOpeningBracket(start) ? maxEm + LINE_START_BRACKET_TRIM_EM / SAFETY : maxEm;
    /** The room of the line being built, set by its first piece. */
    let lineMax = maxEm;
    /** Each line as the pieces it was built from (segments, or characters of an over-long word). */
    const lines: string[][] = [];
    let pieces: string[] = [];
    /** Width of the line up to its last non-space character. */
    let lineEm = 0;
    /** Width of the spaces the line ends in: they count only if more text follows on the line. */
    let trailEm = 0;
    let last: Ending | null = null;

    const pushLine = (): void => {
      lines.push(pieces);
      pieces = [];
      lineEm = 0;
      trailEm = 0;
      last = null;
    };
    const append = (content: string, spaces: string, s: Span): void => {
      if (pieces.length === 0) lineMax = roomOf(lines.length, content);
      pieces.push(content + spaces);
      lineEm += trailEm + s.em;
      const sp = this.span(spaces, s.last, style);
      trailEm = sp.em;
      last = sp.last;
    };

    /** Spaces after the last piece: they hang past the margin unless more text follows on the line. */
    const endWith = (spaces: string): void => {
      if (spaces === '' || pieces.length === 0) return;
      const sp = this.span(spaces, last, style);
      pieces[pieces.length - 1] += spaces;
      trailEm += sp.em;
      last = sp.last;
    };

    for (const segment of breakSegments(text)) {
      let content = withoutTrailingSpaces(segment);
      let spaces = segment.slice(content.length);
      if (content === '' && pieces.length === 0) [content, spaces] = [spaces, ''];
      if (pieces.length > 0) {
        const s = this.span(content, last, style);
        if (lineEm + trailEm + s.em <= lineMax) {
          append(content, spaces, s);
          continue;
        }
        pushLine();
      }
      const s = this.span(content, null, style);
      if (s.em <= roomOf(lines.length, content)) {
        append(content, spaces, s);
        continue;
      }
      // A word longer than a line starts a line of its own, as LibreOffice sets it, and breaks
      // where a Chinese word may break, then at the spaces inside a formula, and a piece that is
      // still too long by character, as both clients do; never before a closing mark.
      const place = (part: string, level: number): void => {
        const partContent = withoutTrailingSpaces(part);
        const partSpaces = part.slice(partContent.length);
        const whole = this.span(partContent, last, style);
        if (pieces.length > 0 && lineEm + trailEm + whole.em <= lineMax) {
          append(partContent, partSpaces, whole);
          return;
        }
        const alone = this.span(partContent, null, style);
        if (alone.em <= roomOf(lines.length + (pieces.length > 0 ? 1 : 0), partContent)) {
          if (pieces.length > 0) pushLine();
          append(partContent, partSpaces, alone);
          return;
        }
        const finer = level === 0 ? breakSegments(part, false) : level === 1 ? spaceSegments(part) : null;
        if (finer !== null) {
          for (const p of finer) place(p, level + 1);
          return;
        }
        for (const ch of partContent) {
          const c = this.span(ch, last, style);
          if (pieces.length > 0 && lineEm + trailEm + c.em > lineMax) {
            const carried: string[] = [];
            // Kinsoku by pushing out: the characters before a closing mark go down with it.
            if (NO_LINE_START.has(ch)) while (pieces.length > 1 && (carried.length === 0 || NO_LINE_START.has(carried[0]?.[0] ?? ''))) carried.unshift(pieces.pop() ?? '');
            pushLine();
            for (const moved of carried) append(moved, '', this.span(moved, last, style));
          }
          const first = pieces.length === 0 ? this.span(ch, null, style) : this.span(ch, last, style);
          append(ch, '', first);
        }
        endWith(partSpaces);
      };
      place(content, 0);
      endWith(spaces);
    }
    if (pieces.length > 0 || lines.length === 0) lines.push(pieces);
    this.avoidOrphan(lines, style, (start) => roomOf(lines.length - 1, start));
    return lines.map((l) => l.join('').trimEnd());
  }

  /**
   * A last line holding one CJK character or a lone quantity (with any closing punctuation) reads as
   * an accident ("…减 / 弱", "…上升 / 3.5%。"): the line before gives up its last piece (a word or
   * phrase) when it has more than one and the last line still fits.
   */
  private avoidOrphan(lines: string[][], style: MeasureStyle, lastLineRoom: (start: string) => number): void {
    const lastLine = lines[lines.length - 1];
    const before = lines[lines.length - 2];
    if (!lastLine || !before || before.length < 2) return;
    if (!isOrphan(lastLine.join('').trim(), lines.some((l) => l.some(containsCjk)))) return;
    // Never a closing mark at the new line's start: the piece before it comes down too.
    let take = 1;
    while (take < before.length && NO_LINE_START.has(Array.from(before[before.length - take] ?? '')[0] ?? '')) take++;
    if (take >= before.length) return;
    const moved = before.slice(before.length - take);
    const joined = (moved.join('') + lastLine.join('')).trimEnd();
    if (this.span(joined, null, style).em > lastLineRoom(joined)) return;
    before.splice(before.length - take, take);
    lastLine.unshift(...moved);
  }

  ellipsize(line: string, style: MeasureStyle, maxWidthPt: number): string {
    const maxEm = maxWidthPt / (style.sizePt * SAFETY);
    const { chars, ems, scripts } = this.layout(line, null, style);
    let fit = 0;
    let used = 0;
    for (let n = 1; n <= chars.length; n++) {
      used += ems[n - 1] ?? 0;
      const ellipsis = this.charEm(ELLIPSIS, scripts[n - 1] ?? 'latin', style);
      if (used + ellipsis > maxEm) break;
      fit = n;
    }
    let prefix = chars.slice(0, fit).join('');
    // Inside a Latin word, cut at the last space instead ("The quick…", not "The qui…").
    const cutsWord = fit < chars.length && /\p{L}/u.test(chars[fit - 1] ?? '') && /\p{L}/u.test(chars[fit] ?? '');
    if (cutsWord && scripts[fit - 1] === 'latin') {
      const space = prefix.lastIndexOf(' ');
      if (space > 0) prefix = prefix.slice(0, space);
    }
    return prefix.replace(TRAILING_BEFORE_ELLIPSIS, '') + ELLIPSIS;
  }

  private span(text: string, prev: Ending | null, style: MeasureStyle): Span {
    if (text === '') return { em: 0, last: prev };
    const caches = this.cacheFor(style);
    const cache = prev === null ? caches.start : caches[prev];
    const hit = cache.get(text);
    if (hit) return hit;
    const { chars, ems, scripts } = this.layout(text, prev, style);
    let em = 0;
    for (const e of ems) em += e;
    const script = scripts[scripts.length - 1];
    const span: Span = { em, last: script === undefined ? prev : endingOf(script, chars[chars.length - 1] ?? '') };
    if (cache.size >= MAX_CACHED_SPANS) cache.clear();
    cache.set(text, span);
    return span;
  }

  private lastStyle: MeasureStyle | undefined;
  private lastCache: SpanCache | undefined;

  private cacheFor(style: MeasureStyle): SpanCache {
    // Layout passes the same style object for a whole paragraph: skip building the key then.
    if (style === this.lastStyle && this.lastCache) return this.lastCache;
    const key = `${style.fonts.latin}|${style.fonts.cjk}|${style.bold ? 'b' : 'r'}|${style.setting ?? 'slide'}`;
    let cache = this.spans.get(key);
    if (!cache) this.spans.set(key, (cache = { start: new Map(), latin: new Map(), cjk: new Map(), mark: new Map(), symbol: new Map() }));
    this.lastStyle = style;
    this.lastCache = cache;
    return cache;
  }

  /** Per-character advances of `text` set after text of script `prev` (null: at a line start). */
  private layout(text: string, prev: Ending | null, style: MeasureStyle): CharLayout {
    // A probe character of the previous script makes leading spaces and quotes join its run, as
    // they do in the paragraph the renderer writes.
    const probe = prev === null ? '' : PROBE[prev];
    const out: CharLayout = { chars: [], ems: [], scripts: [] };
    const setting = style.setting ?? 'slide';
    const gapEm = AUTOSPACE_EM[setting];
    const besideMarks = autospaceBesideMarks(setting);
    let current: Script | null = prev === null ? null : prev === 'latin' || prev === 'symbol' ? 'latin' : 'cjk';
    let previous = probe;
    let skip = probe.length;
    for (const run of splitRunsByScript(probe + text)) {
      const script: Script = run.cjk ? 'cjk' : 'latin';
      const chars = Array.from(run.text);
      let before: string | undefined;
      for (let i = 0; i < chars.length; i++) {
        if (skip > 0) {
          skip--;
          continue;
        }
        const ch = chars[i] ?? '';
        let em: number;
        if (ZERO_WIDTH.test(ch)) em = 0;
        else if (EMOJI.test(ch) || chars[i + 1] === '\uFE0F') em = EMOJI_EM;
        else em = this.charEm(ch, script, style);
        if (before !== undefined) em += this.pairEm(before, ch, script, style);
        before = ch;
        if (current !== null && current !== script && (besideMarks || !isFullWidthMark(current === 'cjk' ? previous : ch)) && autospaceBesideLatin(setting, current === 'cjk' ? ch : previous)) em += gapEm;
        current = script;
        previous = ch;
        out.chars.push(ch);
        out.ems.push(em);
        out.scripts.push(script);
      }
    }
    return out;
  }
}
