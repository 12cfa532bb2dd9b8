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

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PlannedBox extends Rect {
  /** Stable within a slide (e.g. "title", "body", "card-2"), used in report messages. */
  id: string;
  role: PlannedBoxRole;
  /** The text the layout put in this box (words found in the PDF are matched to boxes by it). */
  text?: string;
  /**
   * For images: the picture's pixel size, so upscaling can be measured. The box is then the frame
   * the picture is shown in (after contain/cover fitting).
   */
  pixels?: { w: number; h: number };
  /** For tables: where one column ends and the next begins, inches from the slide's left. */
  cuts?: number[];
}

export interface PlannedSlide {
  /** 1-based number of the slide in the .pptx. */
  number: number;
  /** 0-based index of the spec slide it came from. */
  sourceIndex: number;
  /** Every box the layout placed, footer and slide number included (unplanned text in the footer band is reported). */
  boxes: PlannedBox[];
  /**
   * The region the layout meant the content to fill (below the title, above the footer). Slides
   * without one (title, section, closing, full-bleed image, quote) are not judged for fill.
   */
  body?: Rect;
  /**
   * Whether the slide has a footer band (content slides carry the master's footer and number). Hero
   * slides (title, section, closing, full-bleed image) use the whole slide: no `in_footer` there.
   */
  footerBand?: boolean;
}

export interface VerifyInput {
  pptxPath: string;
  /** Slide size in inches. */
  size: { w: number; h: number };
  /** Top of the footer band (inches): body text must end above it. */
  footerTop: number;
  slides: PlannedSlide[];
  /** Text the template's master and layouts draw themselves, boxes in fractions of the slide (see SlideFrame.fixedText). */
  fixedText?: readonly FixedText[];
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
  /** Of which LibreOffice's conversion (absent when it did not run to the end). */
  convertMs?: number;
}

/** Text a template's master or layout draws itself, and where (fractions of the slide). */
export interface FixedText {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
}
