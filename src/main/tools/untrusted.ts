// Text Folio did not write and the person did not type is marked as untrusted in the model's
// context: web pages and search results, MCP tool results, text extracted from documents. Any of
// them can say "ignore your instructions", and the model must read that as data. The system prompt
// explains the marker (agent/system-prompt.ts reads UNTRUSTED_TAG from here, so the name is written once).
export const UNTRUSTED_TAG = 'untrusted_content';

// A marker can be forged in any form some later reader (a markdown renderer, an HTML decoder, the
// model itself) might turn back into `<untrusted_content` or `</untrusted_content`: so the opening
// bracket, the slash and the underscore are each matched in their escaped forms too (HTML entities,
// URL and JS escapes, markdown backslashes, full-width look-alikes), with zero-width or other format
// characters and backslashes allowed between any two letters.
const GAP = String.raw`[\s\p{Cf}\\]*`;
const OPENER = String.raw`(?:<|＜|﹤|&lt;?|&#0*60;?|&#x0*3c;?|\\u0*3c|\\x3c|%3c)`;
const SLASH = String.raw`(?:/|／|&#0*47;?|&#x0*2f;?|&sol;|%2f)`;
const JOIN = String.raw`(?:[\s\p{Cf}_\\-]|&#0*95;?|&#x0*5f;?|&lowbar;|%5f)*`;
const word = (w: string): string => [...w].join(`[\\p{Cf}\\\\]*`);
const MARKER_LIKE = new RegExp(`${OPENER}${GAP}(?:${SLASH}${GAP})?${word('untrusted')}${JOIN}${word('content')}`, 'giu');

/** What a forged marker is replaced with: visible, and matching none of the forms above. */
export const DEFUSED_MARKER = '[forged content marker removed]';

function escapeAttribute(value: string): string {
  return value.replace(/[&"<>\r\n]/gu, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;', '\r': ' ', '\n': ' ' })[c] ?? '');
}

/** The content with every marker-like sequence, in any of its escaped forms, replaced by DEFUSED_MARKER. */
export function neutralizeMarkers(content: string): string {
  return content.replace(MARKER_LIKE, DEFUSED_MARKER);
}

/** Whether `text` holds anything a reader could take for the marker (tests, and callers checking a wrapped result). */
export function markerLikeCount(text: string): number {
  return [...text.matchAll(MARKER_LIKE)].length;
}

/** Wraps untrusted text for the model: `<untrusted_content source="…">…</untrusted_content>`. */
export function wrapUntrusted(source: string, content: string): string {
  return `<${UNTRUSTED_TAG} source="${escapeAttribute(source)}">\n${neutralizeMarkers(content)}\n</${UNTRUSTED_TAG}>`;
}
