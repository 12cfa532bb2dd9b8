// The east-Asian font guarantee. pptxgenjs writes one `fontFace` into latin/ea/cs of a run, and
// nothing at all for runs without a fontFace (speaker notes, some chart text). A run holding
// Chinese with no CJK-capable `<a:ea>` renders in whatever fallback the client picks (tofu on a
// machine without one), so after writing we read the XML back and give every such run the theme's
// CJK face. `findRunsWithoutCjkFont` is the check the tests (and the renderer) run on the result.
import { loadZip } from './zip';
import { containsCjk } from '../../../shared/specs/deck';

const RUN = /<a:r>([\s\S]*?)<\/a:r>/g;
const TEXT = /<a:t>([\s\S]*?)<\/a:t>/g;
/** Elements that must come after `<a:ea>` inside `<a:rPr>` (CT_TextCharacterProperties order). */
const AFTER_EA = ['<a:cs', '<a:sym', '<a:hlinkClick', '<a:hlinkMouseOver', '<a:rtl', '<a:extLst'];

export function decodeXmlText(s: string): string {
  return s
    .replace(/&#x([0-9a-fA-F]+);/g, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(parseInt(d, 10)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function runText(runXml: string): string {
  let out = '';
  for (const m of runXml.matchAll(TEXT)) out += decodeXmlText(m[1] ?? '');
  return out;
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** Gives every CJK run in a DrawingML part an `<a:ea>` with a CJK-capable face. */
export function ensureEastAsianFonts(xml: string, cjkFace: string, isCapable: (face: string) => boolean): string {
  const ea = `<a:ea typeface="${escapeAttr(cjkFace)}"/>`;
  return xml.replace(RUN, (whole, inner: string) => {
    if (!containsCjk(runText(inner))) return whole;
    const eaMatch = /<a:ea typeface="([^"]*)"[^>]*\/>/.exec(inner);
    if (eaMatch) {
      if (isCapable(decodeXmlText(eaMatch[1] ?? ''))) return whole;
      return `<a:r>${inner.replace(eaMatch[0], ea)}</a:r>`;
    }
    const selfClosing = /^\s*<a:rPr([^>]*?)\/>/.exec(inner);
    if (selfClosing) return `<a:r>${inner.replace(selfClosing[0], `<a:rPr${selfClosing[1] ?? ''}>${ea}</a:rPr>`)}</a:r>`;
    const open = /^\s*<a:rPr[^>]*>/.exec(inner);
    if (!open) return `<a:r><a:rPr lang="zh-CN">${ea}</a:rPr>${inner}</a:r>`;
    const end = inner.indexOf('</a:rPr>');
    const props = inner.slice(open[0].length, end);
    const latin = /<a:latin\b[^>]*\/>/.exec(props);
    let at = props.length;
    if (latin) at = latin.index + latin[0].length;
    else {
      for (const tag of AFTER_EA) {
        const i = props.indexOf(tag);
        if (i >= 0) at = Math.min(at, i);
      }
    }
    const newProps = props.slice(0, at) + ea + props.slice(at);
    return `<a:r>${open[0]}${newProps}${inner.slice(end)}</a:r>`;
  });
}

/**
 * Chart text (axis labels, legend, data labels) is styled by `<a:defRPr>` with only `<a:latin>`;
 * when the chart holds CJK text, add the CJK face as `<a:ea>` right after each `<a:latin>`.
 */
export function ensureChartEastAsianFonts(xml: string, cjkFace: string): string {
  if (!containsCjk(decodeXmlText(xml.replace(/<[^>]+>/g, ' ')))) return xml;
  const ea = `<a:ea typeface="${escapeAttr(cjkFace)}"/>`;
  return xml.replace(/(<a:latin\b[^>]*\/>)(?!\s*<a:ea\b)/g, `$1${ea}`);
}

export interface CjkRunProblem {
  part: string;
  text: string;
  ea: string | undefined;
}

/** Every `<a:r>` holding CJK text whose `<a:ea>` is missing or not a CJK-capable face. */
export function findRunsWithoutCjkFont(part: string, xml: string, isCapable: (face: string) => boolean): CjkRunProblem[] {
  const problems: CjkRunProblem[] = [];
  for (const m of xml.matchAll(RUN)) {
    const inner = m[1] ?? '';
    const text = runText(inner);
    if (!containsCjk(text)) continue;
    const ea = /<a:ea typeface="([^"]*)"/.exec(inner)?.[1];
    const face = ea === undefined ? undefined : decodeXmlText(ea);
    if (face === undefined || !isCapable(face)) problems.push({ part, text, ea: face });
  }
  return problems;
}

export const TEXT_PARTS = /^ppt\/(slides|notesSlides|slideMasters|slideLayouts|charts)\/[^/]+\.xml$/;

/** The theme's east-Asian font slots, so text a person types later also gets a CJK face. */
export function setThemeEastAsianFonts(themeXml: string, cjkHeading: string, cjkBody: string): string {
  return themeXml
    .replace(/(<a:majorFont>[\s\S]*?)<a:ea typeface=""\/>/, `$1<a:ea typeface="${escapeAttr(cjkHeading)}"/>`)
    .replace(/(<a:minorFont>[\s\S]*?)<a:ea typeface=""\/>/, `$1<a:ea typeface="${escapeAttr(cjkBody)}"/>`);
}

/** All CJK runs without a CJK-capable east-Asian face, across every text part of a deck. */
export async function auditCjkFonts(pptx: Uint8Array, isCapable: (face: string) => boolean): Promise<CjkRunProblem[]> {
  const zip = await loadZip(pptx);
  const problems: CjkRunProblem[] = [];
  for (const name of Object.keys(zip.files)) {
    const file = zip.file(name);
    if (!file || !TEXT_PARTS.test(name)) continue;
    problems.push(...findRunsWithoutCjkFont(name, await file.async('string'), isCapable));
  }
  return problems;
}
