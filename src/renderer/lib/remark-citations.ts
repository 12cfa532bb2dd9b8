// A remark plugin: citations in the answer's text (lib/citations.ts) become links marked with their
// file and page, which the markdown view draws as chips. Code and existing links are left alone.
import type { Link, Nodes, Parent, PhrasingContent, Root } from 'mdast';
import { splitCitations } from './citations';

const SKIP = new Set(['code', 'inlineCode', 'link', 'linkReference', 'html']);

export function remarkCitations() {
  return (tree: Root) => {
    visit(tree);
  };
}

function visit(node: Nodes): void {
  if (!('children' in node) || SKIP.has(node.type)) return;
  const parent = node as Parent;
  const children: Nodes[] = [];
  for (const child of parent.children as Nodes[]) {
    if (child.type !== 'text') {
      visit(child);
      children.push(child);
      continue;
    }
    for (const part of splitCitations(child.value)) {
      if (part.kind === 'text') children.push({ type: 'text', value: part.text });
      else children.push(citationLink(part.text, part.citation.file, part.citation.page));
    }
  }
  parent.children = children as Parent['children'];
}

function citationLink(text: string, file: string, page: number): Link {
  const label: PhrasingContent = { type: 'text', value: text };
  return { type: 'link', url: '', children: [label], data: { hProperties: { dataCiteFile: file, dataCitePage: String(page) } } };
}
