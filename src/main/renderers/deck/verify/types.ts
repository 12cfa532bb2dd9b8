// What the rendered-slide check needs from the layout: for each slide in the file, the boxes the
// layout meant text (and pictures) to stay inside. Coordinates are inches from the slide's top left,
// as in the .pptx.
import { type QualityIssue } from '../../../../shared/specs/deck';

export type PlannedBoxRole =
  | 'title'
  | 'body'
  | 'caption'
  | 'label'
  | 'footer'
  | 'number'
  | 'chart'
  | 'table'
  | 'image'
  | 'decoration';

export interface PlannedBox {
  /** Stable within a slide (e.g. "title", "body", "card-2"), used in report messages. */
  id: string;
  role: PlannedBoxRole;
  x: number;
  y: number;
  w: number;
  h: number;
  /** The text the layout put in this box (words found in the PDF are matched to boxes by it). */
  text?: string;
  /** For images: the picture's pixel size, so upscaling can be measured. */
  pixels?: { w: number; h: number };
}

export interface PlannedSlide {
  /** 1-based number of the slide in the .pptx. */
  number: number;
  /** 0-based index of the spec slide it came from. */
  sourceIndex: number;
  boxes: PlannedBox[];
}

export interface VerifyInput {
  pptxPath: string;
  /** Slide size in inches. */
  size: { w: number; h: number };
  /** Top of the footer band (inches): body text must end above it. */
  footerTop: number;
  slides: PlannedSlide[];
}

export interface VerifiedSlide {
  number: number;
  sourceIndex: number;
  issues: QualityIssue[];
}

export interface VerifyResult {
  /** 'rendered': LibreOffice converted the deck and word positions were read back; 'estimated': it could not. */
  mode: 'rendered' | 'estimated';
  /** Why the check could not run (LibreOffice missing, conversion failed), when mode is 'estimated'. */
  reason?: string;
  slides: VerifiedSlide[];
  /** Wall time of the conversion and the read-back, for the bench. */
  ms: number;
}
