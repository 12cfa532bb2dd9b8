// The seam between layout (slides and documents) and font metrics. Layout asks "how wide is this line, where does this
// paragraph break" in points; an implementation answers from the font files the slide will use
// (fontkit), or from width tables when a face is not installed, and says which it did so the quality
// report can tell the truth about its own accuracy.
import { type LineStartTrim } from '../../../shared/specs/deck-text';
import { type TextSetting } from './autospace';

/** The two faces a run of text is set in: Latin runs use `latin`, CJK runs use `cjk`. */
export interface FontPair {
  latin: string;
  cjk: string;
}

export interface MeasureStyle {
  fonts: FontPair;
  sizePt: number;
  bold?: boolean;
  /** Where the text is set, which sizes LibreOffice's CJK–Latin gap (autospace.ts); a slide's text box when absent. */
  setting?: TextSetting;
}

/**
 * `family` is the family fontconfig resolved `face` to; when it differs from `face` the slide is
 * drawn (and measured) in a substitute, e.g. "Arial" → "Liberation Sans" (metric-compatible) or
 * "Calibri" → "DejaVu Sans" when Carlito is not installed (not compatible: PowerPoint will differ).
 */
export type MetricsSource =
  | { kind: 'font'; face: string; file: string; family?: string }
  | { kind: 'table'; face: string };

export interface TextMeasurer {
  /**
   * Advance width, in points, of one line set without wrapping: CJK characters in the CJK face,
   * everything else in the Latin face, plus the gap LibreOffice adds between CJK and Latin/digits
   * (autospace, sized by the style's setting), so a measured line is never narrower than the rendered one.
   */
  widthPt(text: string, style: MeasureStyle): number;
  /**
   * Breaks one paragraph (no newlines) into lines no wider than `maxWidthPt`: Latin at spaces and
   * after hyphens, CJK between any two characters, never starting a line with closing punctuation
   * or ending one with opening punctuation (clreq), numbers and their units kept together. A word
   * longer than a line is broken by character. Never returns zero lines; never inserts characters.
   * `lineStarts`: the lines a slide sets half an em sooner when they start with a full-width opening
   * bracket, which have that much more room (none when absent).
   */
  wrap(text: string, style: MeasureStyle, maxWidthPt: number, lineStarts?: LineStartTrim): string[];
  /** The longest prefix of `line` that fits `maxWidthPt` with "…" appended, plus the "…". */
  ellipsize(line: string, style: MeasureStyle, maxWidthPt: number): string;
  /** Where the metrics of `face` come from (a font file, or the fallback width table). */
  sourceOf(face: string): MetricsSource;
  /** The colour emoji face installed on this machine (e.g. "Noto Color Emoji"), or null. */
  emojiFace(): string | null;
  /**
   * Which of these emoji (one sequence each) the emoji face cannot draw as outlines, and why: a code
   * point it lacks, or a face that has only colour bitmaps (CBDT/sbix), which LibreOffice's PDF
   * export leaves blank. Empty when nothing is known (no font files read).
   */
  blankEmoji(sequences: readonly string[]): { emoji: string; reason: 'missing' | 'bitmap' }[];
}
