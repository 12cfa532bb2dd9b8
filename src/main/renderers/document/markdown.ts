// Markdown → mdast with GFM (tables, footnotes, strikethrough, task lists, autolinks).
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import { type Root } from 'mdast';
import { trimCjkFromAutolinks } from '../../../shared/specs/document-autolinks';

const parser = unified().use(remarkParse).use(remarkGfm);

export function parseMarkdown(markdown: string): Root {
  // remark-gfm only extends the parser (micromark + mdast extensions); there are no transforms to run.
  const root = parser.parse(markdown);
  trimCjkFromAutolinks(root);
  return root;
}
