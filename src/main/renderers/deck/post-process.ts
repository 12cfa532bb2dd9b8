// Fixes applied to the bytes pptxgenjs writes, before the file is saved:
// 1. pptxgenjs 4.0.1 writes an `<a:pPr>` before *every* run of a multi-run paragraph; the schema
//    allows one, first. PowerPoint offers to "repair" such files, so we keep only the first.
// 2. CJK runs get a CJK-capable `<a:ea>` (see cjk-fonts.ts), charts and the theme too.
import JSZip from 'jszip';
import { ensureChartEastAsianFonts, ensureEastAsianFonts, setThemeEastAsianFonts, TEXT_PARTS } from './cjk-fonts';

const PARAGRAPH = /<a:p>([\s\S]*?)<\/a:p>/g;
const PPR = /<a:pPr\b[^>]*\/>|<a:pPr\b[^>]*>[\s\S]*?<\/a:pPr>/g;

/** Keeps the first `<a:pPr>` of each paragraph (moved to the front) and drops the rest. */
export function dedupeParagraphProps(xml: string): string {
  return xml.replace(PARAGRAPH, (whole, inner: string) => {
    const props = inner.match(PPR);
    if (!props || (props.length === 1 && inner.startsWith(props[0]))) return whole;
    return `<a:p>${props[0]}${inner.replace(PPR, '')}</a:p>`;
  });
}

export interface PostProcessFonts {
  cjkHeading: string;
  cjkBody: string;
  isCapable: (face: string) => boolean;
}

export async function postProcessDeck(pptx: Uint8Array, fonts: PostProcessFonts): Promise<Buffer> {
  const zip = await JSZip.loadAsync(pptx);
  for (const name of Object.keys(zip.files)) {
    const file = zip.file(name);
    if (!file) continue;
    if (TEXT_PARTS.test(name)) {
      const xml = await file.async('string');
      let out = dedupeParagraphProps(xml);
      out = ensureEastAsianFonts(out, fonts.cjkBody, fonts.isCapable);
      if (name.startsWith('ppt/charts/')) out = ensureChartEastAsianFonts(out, fonts.cjkBody);
      if (out !== xml) zip.file(name, out);
    } else if (/^ppt\/theme\/theme\d+\.xml$/.test(name)) {
      const xml = await file.async('string');
      const out = setThemeEastAsianFonts(xml, fonts.cjkHeading, fonts.cjkBody);
      if (out !== xml) zip.file(name, out);
    }
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 } });
}
