// Replies as zcbot shows them: markdown rendered for the terminal (headings, bold, lists, tables,
// code blocks) by marked + marked-terminal. While a reply streams, the blocks already complete are
// rendered and the block still arriving is shown as typed, so a half-written table or code fence
// never flickers between renderings.
import { Marked } from 'marked';
import { markedTerminal } from 'marked-terminal';

let parser: Marked | undefined;

/** The text rendered for the terminal (ANSI styles, no trailing blank lines); on a renderer failure, the text as it is. */
export function renderMarkdown(text: string): string {
  parser ??= new Marked(
    // Ink wraps lines itself (by display width, so CJK wraps too); `:word:` stays text, not emoji.
    markedTerminal({ showSectionPrefix: false, reflowText: false, emoji: false, tab: 2 }),
    // marked-terminal prints a list item's text as typed ("**4000**"), since marked 13 hands it
    // over as a text token with inline children (mikaelbr/marked-terminal#304): render those.
    {
      renderer: {
        text(token) {
          return 'tokens' in token && token.tokens?.length ? this.parser.parseInline(token.tokens) : false;
        },
      },
    },
  );
  try {
    return parser.parse(text, { async: false }).replace(/\s+$/, '');
  } catch {
    return text;
  }
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * How much of a streaming reply is made of complete blocks: up to the last blank line that is
 * outside a code fence. The rest may still change what it is (a table, a list, a fence).
 */
export function completeBlocksLength(text: string): number {
  let fenceChar: string | null = null;
  let cut = 0;
  let at = 0;
  for (const line of text.split('\n')) {
    const end = at + line.length + 1;
    const opener = FENCE.exec(line)?.[1];
    if (fenceChar === null && opener) fenceChar = opener[0];
    else if (fenceChar !== null && opener?.startsWith(fenceChar)) fenceChar = null;
    else if (fenceChar === null && line.trim() === '' && end <= text.length) cut = end;
    at = end;
  }
  return cut;
}
