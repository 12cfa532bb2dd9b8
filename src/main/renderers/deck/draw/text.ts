// Draws a planned text element: one pptxgenjs paragraph per plan paragraph, split into script runs
// (the theme's Latin and CJK faces), exact line spacing so the client's lines match the measured
// ones, bullets with the same hanging indent the planner measured. Never italic (CJK has no true
// italic); line breaks only where the plan has paragraphs and, in CJK paragraphs, where it measured
// the lines to break (drawnLines).
import type PptxGenJS from 'pptxgenjs';
import { bulletIndentPt } from '../../../../shared/specs/deck-geometry';
import { type PlanParagraph, type TextElement } from '../../../../shared/specs/deck-plan';
import { containsCjk } from '../../../../shared/specs/deck';
import { type Theme } from '../../../../shared/specs/themes';
import { lineSpacingPt } from '../measure';
import { withNoBreakSpaces } from '../fonts/line-break';
import { paragraphLines } from '../plan/text';
import { type ParagraphOptions, paragraphRuns } from '../text-runs';
import { type DrawContext } from './context';

/** The shape name the post-processor turns into the slide's title placeholder. */
export const TITLE_SHAPE_NAME = 'Title';

/**
 * A paragraph's bullet. On a template (`marginPt` set) it is the template's character for the level
 * and its margin, so lists outside the body placeholder match the ones in it (which leave both to
 * the template: templates/inherit.ts).
 */
function bulletOf(p: PlanParagraph, theme: Theme): ParagraphOptions['bullet'] {
  // pptxgenjs writes the left margin as the indent times (level + 1).
  const indent = p.marginPt !== undefined ? p.marginPt / (p.level + 1) : bulletIndentPt(p.sizePt);
  const own = p.marginPt !== undefined ? theme.template?.bullets?.[p.level]?.char?.codePointAt(0) : undefined;
  switch (p.bullet) {
    case 'none':
      return false;
    case 'disc':
      if (own !== undefined) return { indent, characterCode: own.toString(16).toUpperCase().padStart(4, '0') };
      return p.level === 0 ? { indent } : { indent, characterCode: '2013' };
    case 'number':
      return { type: 'number', indent };
  }
}

/**
 * A CJK paragraph as the lines the planner measured: LibreOffice and PowerPoint would break Chinese
 * between any two characters (inside words, before a unit, leaving one character on the last line),
 * so the breaks a typesetter chooses (fonts/line-break.ts) are written into the paragraph. Latin
 * text breaks at spaces everywhere alike and is left to the client, with the spaces inside a
 * quantity or formula made no-break ("p < 0.01" stays whole, as the plan measured it).
 */
export function drawnLines(ctx: Pick<DrawContext, 'measurer' | 'theme'>, p: PlanParagraph, font: TextElement['font'], boxW: number): string | string[] {
  // A heading's lines are balanced (plan/text.ts balancedLines), which no client does by itself.
  // Written-in lines drop the space they broke at: LibreOffice wraps a line again for a space before
  // its break, so the break itself stands for the space.
  if (font === 'heading') {
    const lines = paragraphLines(ctx.measurer, ctx.theme, p, font, boxW);
    if (lines.length === 2) return containsCjk(p.text) ? lines : lines.map(withNoBreakSpaces);
  }
  if (!containsCjk(p.text)) {
    const glued = withNoBreakSpaces(p.text);
    if (glued === p.text) return p.text;
    // A formula longer than the line: the plan breaks it at its own spaces, where the client,
    // seeing one unbreakable word, would cut it by character; its lines are written in.
    const lines = paragraphLines(ctx.measurer, ctx.theme, p, font, boxW);
    return breaksAtGluedSpace(p.text, glued, lines) ? lines.map(withNoBreakSpaces) : glued;
  }
  const lines = paragraphLines(ctx.measurer, ctx.theme, p, font, boxW);
  return lines.length > 1 ? lines : p.text;
}

/** Whether a line of `lines` (the wrapped `text`) ends at a space that `glued` made no-break. */
function breaksAtGluedSpace(text: string, glued: string, lines: readonly string[]): boolean {
  let at = 0;
  for (const line of lines.slice(0, -1)) {
    const start = text.indexOf(line, at);
    if (start < 0) return false;
    at = start + line.length;
    if (text[at] === ' ' && glued[at] === '\u00A0') return true;
  }
  return false;
}

export function textProps(ctx: DrawContext, el: TextElement): PptxGenJS.TextProps[] {
  return el.paragraphs.flatMap((p, i) =>
    paragraphRuns(
      drawnLines(ctx, p, el.font, el.box.w),
      { role: el.font, size: p.sizePt, color: p.color, bold: p.bold },
      ctx,
      {
        align: el.align,
        lineSpacing: lineSpacingPt(p.sizePt, el.lineHeight),
        paraSpaceAfter: p.spaceAfterPt,
        bullet: bulletOf(p, ctx.theme),
        ...(p.level > 0 ? { indentLevel: p.level } : {}),
      },
      i === el.paragraphs.length - 1,
    ),
  );
}

/**
 * The element that is the slide's heading for PowerPoint's outline and screen readers: its title,
 * else (a quote slide without a title) the quote, which is what the slide says.
 */
export function headingElementId(elements: readonly { kind: string; id: string; role?: string }[]): string | undefined {
  return (elements.find((e) => e.kind === 'text' && e.role === 'title') ?? elements.find((e) => e.kind === 'text' && e.role === 'quote'))?.id;
}

/** `asTitle`: the box becomes the slide's title placeholder (see headingElementId). */
export function drawText(ctx: DrawContext, el: TextElement, asTitle = el.role === 'title'): void {
  ctx.slide.addText(textProps(ctx, el), {
    ...el.box,
    margin: 0,
    valign: el.valign,
    fit: 'none',
    wrap: true,
    objectName: asTitle ? TITLE_SHAPE_NAME : el.id,
  });
}
