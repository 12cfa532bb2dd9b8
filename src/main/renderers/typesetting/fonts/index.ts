// Text measurement for slide and document layout: font metrics where the faces are installed, width tables where
// they are not. One font-backed measurer per process, so every font file is parsed once.
import { type TextMeasurer } from '../text-measurer';
import { FontMeasurer } from './font-measurer';

export { FontDiscovery, type FontconfigRunner, type FontFileRef } from './font-discovery';
export { FontMeasurer } from './font-measurer';
export { TableMeasurer, tableMeasurer } from './table-measurer';
export { EMOJI_EM, SAFETY } from './script-measurer';
export { NO_LINE_END, NO_LINE_START } from './line-break';

let shared: FontMeasurer | undefined;

/** The process-wide font-backed measurer (falls back to the width table per face). */
export function createTextMeasurer(): TextMeasurer {
  shared ??= new FontMeasurer();
  return shared;
}
