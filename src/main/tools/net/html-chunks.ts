// Splits a large HTML page into pieces of bounded size, each well-formed on its own: at a split,
// the elements still open are closed, and opened again (same tag, same attributes) at the start of
// the next piece. The reason is node-html-markdown: its cost grows with the square of the output it
// has built so far (each append re-reads the whole string), and node-html-parser's with the square of
// a parent's text children, so a 1 MB table or a 750 KB paragraph of links takes a minute. Converted
// piece by piece the work is linear. What a split costs the reader: a long table continues as a new
// table (its first row read as a header), a long paragraph as a new paragraph.

/** Elements whose content is text, not markup: never tokenised, never split. */
const RAW_TEXT = new Set(['script', 'style', 'noscript', 'textarea', 'title', 'xmp']);
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
/** Opening one of these closes an open element the parser would close implicitly (`<p>a<p>b`, `<li>`...). */
const CLOSED_BY: Record<string, readonly string[]> = {
  p: ['p'],
  li: ['li'],
  dt: ['dt', 'dd'],
  dd: ['dt', 'dd'],
  tr: ['tr', 'td', 'th'],
  td: ['td', 'th'],
  th: ['td', 'th'],
  option: ['option'],
};

// Comments, doctype/CDATA, or a tag whose attributes may hold quoted '>' characters.
const TOKEN = /<!--[\s\S]*?(?:-->|$)|<![^>]*>?|<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)(?:[^>"']|"[^"]*"|'[^']*')*>/gu;

interface Open {
  name: string;
  tag: string;
}

function closing(stack: readonly Open[]): string {
  let out = '';
  for (let i = stack.length - 1; i >= 0; i -= 1) out += `</${stack[i]?.name ?? ''}>`;
  return out;
}

function endOfRawText(html: string, name: string, from: number): number {
  const close = new RegExp(`</${name}\\s*>`, 'iu');
  const found = close.exec(html.slice(from));
  return found ? from + found.index + found[0].length : html.length;
}

/**
 * Pieces of at most about `maxChars` characters (a piece ends at the first tag boundary past it; a
 * single raw-text element or text run longer than that stays whole). Comments are dropped.
 */
export function splitHtml(html: string, maxChars: number): string[] {
  if (html.length <= maxChars) return [html];
  const pieces: string[] = [];
  let stack: Open[] = [];
  let current = '';
  let pos = 0;
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(html); match !== null; match = TOKEN.exec(html)) {
    current += html.slice(pos, match.index);
    pos = TOKEN.lastIndex;
    const token = match[0];
    const name = match[2]?.toLowerCase();
    if (name === undefined) {
      if (token.startsWith('<!--')) continue;
      current += token;
    } else if (match[1] === '/') {
      const at = stack.map((o) => o.name).lastIndexOf(name);
      if (at < 0) continue;
      stack = stack.slice(0, at);
      current += token;
    } else if (RAW_TEXT.has(name)) {
      const end = endOfRawText(html, name, pos);
      current += token + html.slice(pos, end);
      pos = end;
      TOKEN.lastIndex = end;
    } else {
      const closes = CLOSED_BY[name];
      const top = stack[stack.length - 1];
      if (closes && top && closes.includes(top.name)) stack.pop();
      current += token;
      if (!VOID.has(name) && !token.endsWith('/>')) stack.push({ name, tag: token });
    }
    if (current.length >= maxChars) {
      pieces.push(current + closing(stack));
      const reopen = stack.map((o) => o.tag).join('');
      // Absurd nesting would make every piece start with a piece's worth of tags: start clean instead.
      if (reopen.length > maxChars / 4) stack = [];
      current = stack.length > 0 ? reopen : '';
    }
  }
  current += html.slice(pos);
  if (current.trim() !== '') pieces.push(current);
  return pieces;
}
