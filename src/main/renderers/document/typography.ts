// Settings docx cannot write: the document defaults switch on Word's automatic spacing between Chinese and
// Latin text (autoSpaceDE) and between Chinese text and numbers (autoSpaceDN), so the quarter-em gap comes from
// the layout engine, in Word, WPS and LibreOffice alike, and never from a typed space (see typesetSpaces).

const AUTO_SPACE = '<w:autoSpaceDE/><w:autoSpaceDN/>';

/** styles.xml with autospace in the paragraph defaults. */
export function withAutoSpace(styles: string): string {
  // In CT_PPrBase both come before spacing and indentation, the only properties docx writes in the defaults.
  const patched = styles.replace(/<w:pPrDefault>\s*<w:pPr>/u, (open) => `${open}${AUTO_SPACE}`);
  if (patched !== styles) return patched;
  return styles.replace(/<w:pPrDefault\s*\/>|<w:pPrDefault>\s*<\/w:pPrDefault>/u, `<w:pPrDefault><w:pPr>${AUTO_SPACE}</w:pPr></w:pPrDefault>`);
}
