// LibreOffice's gap where Chinese meets Latin letters or digits (its "Asian-Latin spacing", autoSpaceDE/DN in a
// .docx), as LibreOffice 7.4 draws it. It is not one size: measured from its PDFs in the themes' and templates'
// faces (autospace-libreoffice.test.ts), it depends on where the text is set.
//   slide text box  0.234–0.256 em (12–40 pt, Arial / Times New Roman beside Noto Sans / Serif CJK)
//   chart text      0.265–0.325 em (14–26 pt, all of it in the one CJK face, a fifth of its 1.448 em height)
//   .docx paragraph 0.200–0.208 em (Writer, 11–12 pt, the templates' faces)
// PowerPoint and Word add none, so the measured gap only ever makes a line wider than theirs.

/** Where text is set, which decides the gap LibreOffice puts where its script changes. */
export type TextSetting = 'slide' | 'chart' | 'document';

/** In a slide's text box; the largest gap measured, so a measured line is never narrower than the drawn one. */
export const SLIDE_AUTOSPACE_EM = 0.25;
/** In a chart's title, axis titles, labels and legend: about a fifth of the CJK face's height. */
export const CHART_AUTOSPACE_EM = 0.3;
/** In a Word document's paragraph, as LibreOffice Writer sets it. */
export const DOCUMENT_AUTOSPACE_EM = 0.2;

export const AUTOSPACE_EM: Readonly<Record<TextSetting, number>> = { slide: SLIDE_AUTOSPACE_EM, chart: CHART_AUTOSPACE_EM, document: DOCUMENT_AUTOSPACE_EM };

/**
 * Whether the gap also falls beside a full-width mark ("检索：BM25"). Writer puts none there, and in a slide's text
 * box the run writer stops it with a 1 pt run (deck/text-runs.ts); a chart's text is drawn at one size whatever its
 * runs say, so there nothing stops it.
 */
export function autospaceBesideMarks(setting: TextSetting): boolean {
  return setting === 'chart';
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Whether the gap falls between Chinese and this character of the Latin run beside it. Writer puts it only beside a
 * letter or a digit: its PDFs print "数据集-1", "推理时间(ms)" and "10%时" with no gap beside the hyphen, the
 * bracket or the percent sign (autospace-libreoffice.test.ts). Slides and charts were measured beside letters and
 * digits only, so there every change of script keeps it.
 */
export function autospaceBesideLatin(setting: TextSetting, latin: string): boolean {
  return setting !== 'document' || LETTER_OR_DIGIT.test(latin);
}
