// Proofing languages on the text pptxgenjs writes without ours: speaker notes (one run, always
// "en-US") and chart text (titles, axis, data labels, legend: no language at all). Each run gets the
// language of its own text, as slide runs do (text-runs.ts): the CJK language when it holds CJK,
// the Latin one otherwise, with the same altLang. Chart text styled by `<a:defRPr>` (axis, labels,
// legend) cannot be split by script, so it takes the CJK language when the chart holds any CJK.
import { containsCjk } from '../../../shared/specs/deck';
import { decodeXmlText } from './cjk-fonts';
import { ALT_LANG, LATIN_LANG } from './text-runs';

const RUN = /<a:r>([\s\S]*?)<\/a:r>/g;
const TEXT = /<a:t>([\s\S]*?)<\/a:t>/g;
const RUN_PROPS_OPEN = /^(\s*)<a:rPr\b([^>]*?)(\/?)>/;
const LANG_ATTRS = /\s(?:lang|altLang)="[^"]*"/g;

export const LANGUAGE_PARTS = /^ppt\/(notesSlides|charts)\/[^/]+\.xml$/;

function textOf(runXml: string): string {
  let out = '';
  for (const m of runXml.matchAll(TEXT)) out += decodeXmlText(m[1] ?? '');
  return out;
}

function langAttrs(lang: string): string {
  return ` lang="${lang}" altLang="${ALT_LANG}"`;
}

/** `<a:TAG attrs>` with its lang/altLang replaced by `lang` (and the slides' altLang). */
function retag(tag: string, attrs: string, close: string, lang: string): string {
  return `<a:${tag}${langAttrs(lang)}${attrs.replace(LANG_ATTRS, '')}${close}>`;
}

/** Every run of a notes or chart part tagged with the language of its text; paragraph ends and chart text styles with the part's. */
export function tagRunLanguages(xml: string, cjkLang: string): string {
  const partLang = containsCjk(decodeXmlText(xml.replace(/<[^>]+>/g, ' '))) ? cjkLang : LATIN_LANG;
  const runsTagged = xml.replace(RUN, (_whole, inner: string) => {
    const lang = containsCjk(textOf(inner)) ? cjkLang : LATIN_LANG;
    const props = RUN_PROPS_OPEN.exec(inner);
    if (!props) return `<a:r><a:rPr${langAttrs(lang)}/>${inner}</a:r>`;
    return `<a:r>${props[1] ?? ''}${retag('rPr', props[2] ?? '', props[3] ?? '', lang)}${inner.slice(props[0].length)}</a:r>`;
  });
  return runsTagged.replace(/<a:(endParaRPr|defRPr)\b([^>]*?)(\/?)>/g, (_whole, tag: string, attrs: string, close: string) => retag(tag, attrs, close, partLang));
}
