// Which paragraphs carry their lines into the file, and which lines: decided once, while planning, and
// stored on the paragraph (`PlanParagraph.lines`), so the .pptx drawer (draw/text.ts) and the
// in-app preview break a heading or a Chinese paragraph at the same places.
import { containsCjk } from '../../../../shared/specs/deck';
import { type PlanParagraph, type PlannedSlide, type TextElement } from '../../../../shared/specs/deck-plan';
import { type Theme } from '../../../../shared/specs/themes';
import { withNoBreakSpaces } from '../../typesetting/fonts/line-break';
import { type TextMeasurer } from '../../typesetting/text-measurer';
import { paragraphLines } from './text';

export interface LineContext {
  measurer: TextMeasurer;
  theme: Pick<Theme, 'fonts'>;
}

/**
 * A CJK paragraph as the lines the planner measured: LibreOffice and PowerPoint would break Chinese
 * between any two characters (inside words, before a unit, leaving one character on the last line),
 * so the breaks a typesetter chooses (typesetting/fonts/line-break.ts) are written into the paragraph. Latin
 * text breaks at spaces everywhere alike and is left to the client, with the spaces inside a
 * quantity or formula made no-break ("p < 0.01" stays whole, as the plan measured it).
 */
export function drawnLines(ctx: LineContext, p: PlanParagraph, font: TextElement['font'], boxW: number, align?: TextElement['align']): string | string[] {
  // A line of code is one line, as written, in a box that does not wrap (plan/code.ts fits it).
  if (font === 'code') return p.text;
  // A heading's lines are balanced (typesetting/balanced-lines.ts), which no client does by itself.
  // Written-in lines drop the space they broke at: LibreOffice wraps a line again for a space before
  // its break, so the break itself stands for the space.
  if (font === 'heading') {
    const lines = paragraphLines(ctx.measurer, ctx.theme, p, font, boxW, align);
    if (lines.length === 2) return containsCjk(p.text) ? lines : lines.map(withNoBreakSpaces);
  }
  if (!containsCjk(p.text)) {
    const glued = withNoBreakSpaces(p.text);
    if (glued === p.text) return p.text;
    // A formula longer than the line: the plan breaks it at its own spaces, where the client,
    // seeing one unbreakable word, would cut it by character; its lines are written in.
    const lines = paragraphLines(ctx.measurer, ctx.theme, p, font, boxW, align);
    return breaksAtGluedSpace(p.text, glued, lines) ? lines.map(withNoBreakSpaces) : glued;
  }
  const lines = paragraphLines(ctx.measurer, ctx.theme, p, font, boxW, align);
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

/** Every text paragraph of `slide` that the file sets in written-in lines gets them as `lines`. */
export function writeLinesIn(ctx: LineContext, slide: PlannedSlide): void {
  for (const el of slide.elements) {
    if (el.kind !== 'text') continue;
    for (const p of el.paragraphs) {
      const lines = drawnLines(ctx, p, el.font, el.box.w, el.align);
      if (Array.isArray(lines)) p.lines = lines;
    }
  }
}
