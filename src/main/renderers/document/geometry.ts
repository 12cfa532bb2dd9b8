// Page geometry in twips (1/20 pt, Word's DXA), the unit section properties and table grids use.
import { type DocumentTemplate } from '../../../shared/specs/document';

export const TWIPS_PER_INCH = 1440;
export const PX_PER_INCH = 96;

export function mmToTwips(mm: number): number {
  return Math.round((mm * TWIPS_PER_INCH) / 25.4);
}

export type PageGeometry = {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
  /** Width between the margins: what tables and pictures are fitted to. */
  textWidth: number;
  textHeight: number;
};

export function pageGeometry(template: DocumentTemplate): PageGeometry {
  const width = mmToTwips(template.page.widthMm);
  const height = mmToTwips(template.page.heightMm);
  const margin = {
    top: mmToTwips(template.marginsMm.top),
    right: mmToTwips(template.marginsMm.right),
    bottom: mmToTwips(template.marginsMm.bottom),
    left: mmToTwips(template.marginsMm.left),
  };
  return {
    width,
    height,
    margin,
    textWidth: width - margin.left - margin.right,
    textHeight: height - margin.top - margin.bottom,
  };
}

export function twipsToPx(twips: number): number {
  return (twips * PX_PER_INCH) / TWIPS_PER_INCH;
}
