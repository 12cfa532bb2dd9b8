// How the document engine asks for a measure: in the faces a role's text is set in, at a size, as Writer sets it.
// Writer's Chinese–Latin gap is not a slide's (typesetting/autospace.ts), so every measure of document text goes
// through here and carries `setting: 'document'`.
import { type MeasureStyle } from '../typesetting/text-measurer';
import { type FontRole, fontSet } from './fonts';

/** The measure style of `role`'s text in a document in `language`, at `sizePt`. */
export function documentMeasureStyle(role: FontRole, language: string, sizePt: number): MeasureStyle {
  const fonts = fontSet(role, language);
  return { fonts: { latin: fonts.ascii, cjk: fonts.eastAsia }, sizePt, setting: 'document' };
}
