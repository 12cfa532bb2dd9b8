// A bare URL in Chinese text ends at the first Chinese character or full-width mark. GFM's autolink literal
// runs until whitespace, so "见（https://example.org/a）。" would link "https://example.org/a）。" and print
// the brackets as part of the link. A URL whose path holds Chinese is written as a link, [text](url), or
// percent-encoded. Shared by the .docx engine and the preview.
import type { Link, Nodes, Parent, Root, Text } from 'mdast';

/** CJK punctuation, Han ideographs, kana, hangul and full-width forms: none of them is part of a URL written in Chinese text. */
const CJK = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

/** GFM's literal autolinks are links whose only text is the URL as written (`www.` and e-mail get a scheme added). */
function literalText(link: Link): Text | undefined {
  const [only] = link.children;
  if (link.children.length !== 1 || only?.type !== 'text') return undefined;
  const written = only.value;
  return [written, `http://${written}`, `mailto:${written}`].includes(link.url) ? only : undefined;
}

/** Cuts each autolink literal at its first CJK character; what follows becomes text again. Changes the tree in place. */
export function trimCjkFromAutolinks(tree: Root): void {
  const walk = (node: Nodes): void => {
    if (!('children' in node)) return;
    const parent = node as Parent;
    for (let i = 0; i < parent.children.length; i++) {
      const child = parent.children[i] as Nodes;
      if (child.type !== 'link') {
        walk(child);
        continue;
      }
      const text = literalText(child);
      const cut = text ? text.value.search(CJK) : -1;
      if (!text || cut <= 0) continue;
      const rest = text.value.slice(cut);
      child.url = child.url.slice(0, child.url.length - rest.length);
      text.value = text.value.slice(0, cut);
      parent.children.splice(i + 1, 0, { type: 'text', value: rest } as Text);
    }
  };
  walk(tree);
}

/** The same as a remark plugin (for the preview's react-markdown). */
export function remarkTrimCjkAutolinks(): (tree: Root) => void {
  return trimCjkFromAutolinks;
}
