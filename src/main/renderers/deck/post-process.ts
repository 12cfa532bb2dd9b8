// Fixes applied to the bytes pptxgenjs writes, before the file is saved:
// 1. pptxgenjs 4.0.1 writes an `<a:pPr>` before *every* run of a multi-run paragraph; the schema
//    allows one, first. PowerPoint offers to "repair" such files, so we keep only the first.
// 2. CJK runs get a CJK-capable `<a:ea>` (see cjk-fonts.ts), charts and the theme too; runs in notes
//    and charts get the language of their text (run-languages.ts).
// 3. The slide's title text box becomes its title placeholder (`<p:ph type="title"/>`), so
//    PowerPoint's outline, accessibility checker and screen readers see it. (pptxgenjs's own
//    placeholders take the master's box, not the slide's, so we mark the box we drew instead.)
// 4. A line that starts with a full-width opening bracket starts half an em sooner (line-start-brackets.ts).
// 5. Each slide's chart, workbook and picture parts are named after the slide, and time is taken
//    out of the package (stable-parts.ts): unchanged slides keep byte-identical parts across versions.
import { PackageParts } from './package-parts';
import { type CjkRunProblem, ensureChartEastAsianFonts, ensureEastAsianFonts, findRunsWithoutCjkFont, setThemeEastAsianFonts, TEXT_PARTS } from './cjk-fonts';
import { TITLE_SHAPE_NAME } from './draw/text';
import { trimLineStartBrackets } from './line-start-brackets';
import { LANGUAGE_PARTS, tagRunLanguages } from './run-languages';
import { nameSlidePartsByKey } from './stable-parts';

const TITLE_SHAPE = new RegExp(`(<p:cNvPr id="\\d+" name="${TITLE_SHAPE_NAME}"[^>]*>[\\s\\S]*?</p:cNvPr>)<p:cNvSpPr(?: txBox="1")?/><p:nvPr></p:nvPr>`);

/** Makes the slide's title text box (named TITLE_SHAPE_NAME) its title placeholder. */
export function markTitlePlaceholder(slideXml: string): string {
  return slideXml.replace(TITLE_SHAPE, '$1<p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="title"/></p:nvPr>');
}

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
  /** `lang` for CJK runs in notes and charts (the slides' runs have theirs); without it they are left as written. */
  cjkLang?: string;
}

export interface PostProcessed {
  bytes: Buffer;
  /** CJK runs still without a CJK-capable face after the fixes (auditCjkFonts on the result, without reading it again). */
  cjkProblems: CjkRunProblem[];
}

/**
 * `slideKeys`: one per output slide (slide-ids.ts `slideKey`), naming its parts; without them parts
 * keep pptxgenjs's names (only the dates are fixed).
 */
export async function postProcessDeck(pptx: Uint8Array, fonts: PostProcessFonts, slideKeys?: readonly string[]): Promise<PostProcessed> {
  const zip = PackageParts.read(pptx);
  const cjkProblems: CjkRunProblem[] = [];
  for (const name of zip.names()) {
    if (TEXT_PARTS.test(name)) {
      const xml = zip.text(name) ?? '';
      let out = dedupeParagraphProps(xml);
      if (name.startsWith('ppt/slides/')) out = trimLineStartBrackets(markTitlePlaceholder(out));
      if (fonts.cjkLang !== undefined && LANGUAGE_PARTS.test(name)) out = tagRunLanguages(out, fonts.cjkLang);
      out = ensureEastAsianFonts(out, fonts.cjkBody, fonts.isCapable);
      if (name.startsWith('ppt/charts/')) out = ensureChartEastAsianFonts(out, fonts.cjkBody);
      if (out !== xml) zip.set(name, out);
      cjkProblems.push(...findRunsWithoutCjkFont(name, out, fonts.isCapable));
    } else if (/^ppt\/theme\/theme\d+\.xml$/.test(name)) {
      const xml = zip.text(name) ?? '';
      const out = setThemeEastAsianFonts(xml, fonts.cjkHeading, fonts.cjkBody);
      if (out !== xml) zip.set(name, out);
    }
  }
  if (slideKeys) nameSlidePartsByKey(zip, slideKeys);
  const zipped = zip.write();
  const bytes = Buffer.from(zipped.buffer, zipped.byteOffset, zipped.byteLength);
  return { bytes, cjkProblems };
}
