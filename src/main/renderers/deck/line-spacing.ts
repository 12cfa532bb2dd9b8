// Line spacing as the deck drawers write it into the .pptx.
/** Exact line spacing in points as written to the file (so measurement and rendering agree). */
export function lineSpacingPt(sizePt: number, lineHeight: number): number {
  return Math.round(sizePt * lineHeight * 10) / 10;
}
