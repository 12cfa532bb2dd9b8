// Settings docx cannot write: the document defaults switch on Word's automatic spacing between Chinese and
// Latin text (autoSpaceDE) and between Chinese text and numbers (autoSpaceDN), so the quarter-em gap comes from
// the layout engine, in Word, WPS and LibreOffice alike, and never from a typed space (see typesetSpaces).
import JSZip from 'jszip';

const STYLES = 'word/styles.xml';
const AUTO_SPACE = '<w:autoSpaceDE/><w:autoSpaceDN/>';

export async function withAutoSpace(bytes: Uint8Array): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(bytes);
  const styles = await zip.file(STYLES)?.async('string');
  if (styles === undefined) return bytes;
  // In CT_PPrBase both come before spacing and indentation, the only properties docx writes in the defaults.
  let patched = styles.replace(/<w:pPrDefault>\s*<w:pPr>/u, (open) => `${open}${AUTO_SPACE}`);
  if (patched === styles) patched = styles.replace(/<w:pPrDefault\s*\/>|<w:pPrDefault>\s*<\/w:pPrDefault>/u, `<w:pPrDefault><w:pPr>${AUTO_SPACE}</w:pPr></w:pPrDefault>`);
  if (patched === styles) return bytes;
  zip.file(STYLES, patched);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}
