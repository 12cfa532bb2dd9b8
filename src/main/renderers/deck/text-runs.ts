// Text → pptxgenjs runs, one per script, each with the theme's face for that script. This is the
// CJK font rule of docs/deck-spec.md in code. Emoji get runs of their own in the colour emoji face
// when one is installed: left in a text face, LibreOffice and PowerPoint pick a monochrome fallback
// or draw boxes.
import type PptxGenJS from 'pptxgenjs';
import { isFullWidthMark, type ScriptRun, splitRunsByScript } from '../../../shared/specs/deck';
import { type FaceRole, fontFaceFor, type Theme } from '../../../shared/specs/themes';

/** `lang` of runs without CJK text. */
export const LATIN_LANG = 'en-US';
/** `altLang` on every run (pptxgenjs writes it on runs given a `lang`); notes and charts copy it. */
export const ALT_LANG = 'en-US';

export interface RunStyle {
  role: FaceRole;
  size: number;
  color: string;
  bold?: boolean;
  italic?: boolean;
}

/** The faces a run can be given: the theme's per script, and the colour emoji face (null: none installed). */
export interface RunFonts {
  theme: Theme;
  /** `lang` written on CJK runs (zh-CN, ja-JP...). */
  cjkLang: string;
  emojiFace: string | null;
}

/**
 * One emoji as a reader sees it: a pictograph shown as emoji by default or asked for with U+FE0F, with
 * its skin tone, tag characters and ZWJ-joined parts; a flag (two regional indicators); a keycap.
 * Neighbouring emoji share a run. The measurer counts the same characters as emoji (EMOJI_EM).
 */
const EMOJI_SEQUENCE =
  /(?:\p{Regional_Indicator}{2}|[#*0-9]\uFE0F?\u20E3|(?:\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F)[\u{1F3FB}-\u{1F3FF}\uFE0F\u{E0020}-\u{E007F}]*(?:\u200D\p{Extended_Pictographic}[\u{1F3FB}-\u{1F3FF}\uFE0F]*)*)+/gu;

export interface EmojiSplit {
  text: string;
  emoji: boolean;
}

/** `text` cut into emoji and non-emoji pieces, in order, none empty. */
export function splitEmoji(text: string): EmojiSplit[] {
  const parts: EmojiSplit[] = [];
  let at = 0;
  for (const m of text.matchAll(EMOJI_SEQUENCE)) {
    if (m.index > at) parts.push({ text: text.slice(at, m.index), emoji: false });
    parts.push({ text: m[0], emoji: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), emoji: false });
  return parts;
}

/** Paragraph options carried by the first run of a paragraph (pptxgenjs reads them from there). */
export type ParagraphOptions = Pick<
  PptxGenJS.TextPropsOptions,
  'bullet' | 'indentLevel' | 'align' | 'lineSpacing' | 'paraSpaceAfter' | 'paraSpaceBefore'
>;

/**
 * Where a full-width mark meets Latin text, LibreOffice still adds its CJK–Latin gap (a fifth of the
 * height of the run before the script change) on top of the mark's own blank: "检索：␣BM25",
 * "（␣hallucination␣）". A word joiner in a 1 pt run of its own takes the script of the text before
 * it, so the script changes after it and the gap is a fifth of 1 pt. PowerPoint adds no gap and draws
 * the joiner as nothing; LibreOffice leaves it out of the PDF's text (a zero-width space would stay
 * in it, and in what a reader copies). It forbids a break there, which costs nothing: paragraphs with
 * CJK text carry their measured breaks (draw/text.ts). The measurer follows the same rule.
 */
const STOPPER = '\u2060';
const STOPPER_PT = 1;
function stopsGap(left: ScriptRun, right: ScriptRun): boolean {
  const before = Array.from(left.text).at(-1) ?? '';
  const after = Array.from(right.text)[0] ?? '';
  return (left.cjk && !right.cjk && isFullWidthMark(before)) || (!left.cjk && right.cjk && isFullWidthMark(after));
}

export function scriptRuns(text: string, style: RunStyle, fonts: RunFonts): PptxGenJS.TextProps[] {
  const runs = splitRunsByScript(text);
  if (runs.length === 0) runs.push({ text: '', cjk: false });
  const { emojiFace } = fonts;
  return runs.flatMap((run, i) => {
    const face = fontFaceFor(fonts.theme, style.role, run.cjk);
    const pieces = emojiFace === null ? [{ text: run.text, emoji: false }] : splitEmoji(run.text);
    const options = (emoji: boolean, size: number): PptxGenJS.TextPropsOptions => ({
      fontFace: emoji && emojiFace !== null ? emojiFace : face,
      fontSize: size,
      color: style.color,
      bold: style.bold ?? false,
      italic: style.italic ?? false,
      lang: run.cjk ? fonts.cjkLang : LATIN_LANG,
    });
    const out: PptxGenJS.TextProps[] = pieces.map((piece) => ({ text: piece.text, options: options(piece.emoji, style.size) }));
    const next = runs[i + 1];
    if (next && stopsGap(run, next)) out.push({ text: STOPPER, options: options(false, STOPPER_PT) });
    return out;
  });
}

/**
 * One paragraph: script runs, paragraph options on the first, a paragraph break after the last.
 * Given as lines, the lines are joined by soft line breaks (`<a:br/>`), so the client breaks there.
 */
export function paragraphRuns(text: string | readonly string[], style: RunStyle, fonts: RunFonts, para: ParagraphOptions, last: boolean): PptxGenJS.TextProps[] {
  const lines = typeof text === 'string' ? [text] : text;
  const runs = lines.flatMap((line, k) => {
    const lineRuns = scriptRuns(line, style, fonts);
    const first = lineRuns[0];
    if (k > 0 && first) first.options = { ...first.options, softBreakBefore: true };
    return lineRuns;
  });
  runs.forEach((run, i) => {
    run.options = { ...run.options, ...para, bullet: i === 0 ? (para.bullet ?? false) : undefined };
    if (i === 0 && para.bullet === undefined) run.options.bullet = false;
  });
  const lastRun = runs[runs.length - 1];
  if (lastRun && !last) lastRun.options = { ...lastRun.options, breakLine: true };
  return runs;
}

/** Several paragraphs of one style (e.g. a title that was wrapped by hand, or body text). */
export function textRuns(paragraphs: readonly string[], style: RunStyle, fonts: RunFonts, para: ParagraphOptions = {}): PptxGenJS.TextProps[] {
  return paragraphs.flatMap((p, i) => paragraphRuns(p, style, fonts, para, i === paragraphs.length - 1));
}
