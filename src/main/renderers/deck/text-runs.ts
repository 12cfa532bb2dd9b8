// Text → pptxgenjs runs, one per script, each with the theme's face for that script. This is the
// CJK font rule of docs/deck-spec.md in code.
import type PptxGenJS from 'pptxgenjs';
import { splitRunsByScript } from '../../../shared/specs/deck';
import { fontFaceFor, type Theme } from '../../../shared/specs/themes';

export interface RunStyle {
  role: 'heading' | 'body';
  size: number;
  color: string;
  bold?: boolean;
  italic?: boolean;
}

/** Paragraph options carried by the first run of a paragraph (pptxgenjs reads them from there). */
export type ParagraphOptions = Pick<
  PptxGenJS.TextPropsOptions,
  'bullet' | 'indentLevel' | 'align' | 'lineSpacing' | 'paraSpaceAfter' | 'paraSpaceBefore'
>;

export function scriptRuns(text: string, style: RunStyle, theme: Theme, cjkLang: string): PptxGenJS.TextProps[] {
  const runs = splitRunsByScript(text);
  if (runs.length === 0) runs.push({ text: '', cjk: false });
  return runs.map((run) => ({
    text: run.text,
    options: {
      fontFace: fontFaceFor(theme, style.role, run.cjk),
      fontSize: style.size,
      color: style.color,
      bold: style.bold ?? false,
      italic: style.italic ?? false,
      lang: run.cjk ? cjkLang : 'en-US',
    },
  }));
}

/** One paragraph: script runs, paragraph options on the first, a line break after the last. */
export function paragraphRuns(
  text: string,
  style: RunStyle,
  theme: Theme,
  cjkLang: string,
  para: ParagraphOptions,
  last: boolean,
): PptxGenJS.TextProps[] {
  const runs = scriptRuns(text, style, theme, cjkLang);
  runs.forEach((run, i) => {
    run.options = { ...run.options, ...para, bullet: i === 0 ? (para.bullet ?? false) : undefined };
    if (i === 0 && para.bullet === undefined) run.options.bullet = false;
  });
  const lastRun = runs[runs.length - 1];
  if (lastRun && !last) lastRun.options = { ...lastRun.options, breakLine: true };
  return runs;
}

/** Several paragraphs of one style (e.g. a title that was wrapped by hand, or body text). */
export function textRuns(
  paragraphs: readonly string[],
  style: RunStyle,
  theme: Theme,
  cjkLang: string,
  para: ParagraphOptions = {},
): PptxGenJS.TextProps[] {
  return paragraphs.flatMap((p, i) => paragraphRuns(p, style, theme, cjkLang, para, i === paragraphs.length - 1));
}
