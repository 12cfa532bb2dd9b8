// Heading numbers for the document preview, counted across all sections in order exactly as the
// .docx engine does: the levels the shared numbering formats list are numbered (一、（一）1.（1）), deeper
// ones aren't, and a references heading is left unnumbered without consuming a number.
import type { Heading, Nodes } from 'mdast';
import { toString } from 'mdast-util-to-string';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { headingLabel, headingLabelJoiner, type HeadingNumbering, isReferencesHeading, NUMBERED_HEADING_LEVELS } from '../../shared/specs/document';

/** Where a heading starts: its section's index and its character offset in that section's markdown. */
export function headingKey(section: number, offset: number): string {
  return `${section}:${offset}`;
}

function collectHeadings(node: Nodes, out: Heading[]): void {
  if (node.type === 'heading') {
    out.push(node);
    return;
  }
  if ('children' in node) for (const child of node.children) collectHeadings(child, out);
}

/** Parses like the preview's react-markdown does, so offsets line up with the rendered nodes. */
function headingsOf(markdown: string): Heading[] {
  const tree = unified().use(remarkParse).use(remarkGfm).parse(markdown);
  const out: Heading[] = [];
  collectHeadings(tree, out);
  return out;
}

/** Label (e.g. `一、`, `（二）`, `1.2`) for every numbered heading, keyed by `headingKey`. */
export function computeHeadingLabels(sections: readonly string[], numbering: HeadingNumbering): Map<string, string> {
  const labels = new Map<string, string>();
  let counters: number[] = [];
  sections.forEach((markdown, section) => {
    for (const heading of headingsOf(markdown)) {
      const level = heading.depth - 1;
      if (level >= NUMBERED_HEADING_LEVELS || isReferencesHeading(toString(heading).trim())) continue;
      const next = counters.slice(0, level + 1);
      while (next.length < level + 1) next.push(next.length === level ? 0 : 1);
      next[level] = (next[level] ?? 0) + 1;
      counters = next;
      const offset = heading.position?.start.offset;
      if (offset !== undefined) labels.set(headingKey(section, offset), headingLabel(numbering, counters));
    }
  });
  return labels;
}

/** `一、`, `（一）` and `（1）` run straight into the title; other labels are followed by a space. */
export function labelJoiner(numbering: HeadingNumbering, depth: number): string {
  return headingLabelJoiner(numbering, depth - 1);
}
