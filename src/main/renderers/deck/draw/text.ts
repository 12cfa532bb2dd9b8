// Draws a planned text element: one pptxgenjs paragraph per plan paragraph, split into script runs
// (the theme's Latin and CJK faces), exact line spacing so the client's lines match the measured
// ones, bullets with the same hanging indent the planner measured. Never italic (CJK has no true
// italic); line breaks only where the plan has paragraphs and where it wrote a paragraph's lines in
// (`PlanParagraph.lines`, plan/written-lines.ts).
import type PptxGenJS from 'pptxgenjs';
import { bulletIndentPt } from '../../../../shared/specs/deck-geometry';
import { type PlanParagraph, type TextElement } from '../../../../shared/specs/deck-plan';
import { type Theme } from '../../../../shared/specs/themes';
import { lineSpacingPt } from '../line-spacing';
import { drawnLines } from '../plan/written-lines';
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

export function textProps(ctx: DrawContext, el: TextElement): PptxGenJS.TextProps[] {
  return el.paragraphs.flatMap((p, i) =>
    paragraphRuns(
      // The plan's lines (plan/written-lines.ts); plans made before they were stored decide here.
      p.lines ?? drawnLines(ctx, p, el.font, el.box.w, el.align),
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
    // Code is never wrapped: its lines were fitted to the box (plan/code.ts).
    wrap: el.font !== 'code',
    objectName: asTitle ? TITLE_SHAPE_NAME : el.id,
  });
}
