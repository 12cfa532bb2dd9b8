// What every element drawer gets: the pptxgenjs slide to draw on and the deck-wide facts (theme for
// font faces, the language written on CJK runs, the task folder images are read from).
import type PptxGenJS from 'pptxgenjs';
import { type Theme } from '../../../../shared/specs/themes';
import { type TextMeasurer } from '../../typesetting/text-measurer';

export interface DrawContext {
  pptx: PptxGenJS;
  slide: PptxGenJS.Slide;
  theme: Theme;
  /** `lang` written on CJK runs (zh-CN, ja-JP...). */
  cjkLang: string;
  /** The task folder: image paths are relative to it. */
  baseDir: string;
  /** The colour emoji face emoji runs are set in, or null when none is installed. */
  emojiFace: string | null;
  /** The planner's measurer: CJK paragraphs are drawn with the line breaks it measured. */
  measurer: TextMeasurer;
}
