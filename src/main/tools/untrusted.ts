// Web content in the model's context is marked as untrusted: a page or a search result can say
// "ignore your instructions", and the model must read that as data. The system prompt explains the
// marker (agent/system-prompt.ts reads UNTRUSTED_TAG from here, so the name is written once).
export const UNTRUSTED_TAG = 'untrusted_content';

/**
 * Anything inside the content that could be read as our marker: `<untrusted_content`,
 * `</untrusted_content`, with any case, spaces, zero-width or other format characters, `-` for `_`.
 */
const MARKER_LIKE = /<[\s\p{Cf}]*\/?[\s\p{Cf}]*untrusted[\s\p{Cf}_-]*content/giu;

function escapeAttribute(value: string): string {
  return value.replace(/[&"<>\r\n]/gu, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;', '\r': ' ', '\n': ' ' })[c] ?? '');
}

/** The content with every marker-like sequence defused ("<" becomes "&lt;"), so it cannot close the wrapper. */
export function neutralizeMarkers(content: string): string {
  return content.replace(MARKER_LIKE, (match) => `&lt;${match.slice(1)}`);
}

/** Wraps web content for the model: `<untrusted_content source="…">…</untrusted_content>`. */
export function wrapUntrusted(source: string, content: string): string {
  return `<${UNTRUSTED_TAG} source="${escapeAttribute(source)}">\n${neutralizeMarkers(content)}\n</${UNTRUSTED_TAG}>`;
}
