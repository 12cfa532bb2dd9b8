// Captions, cross-references and list styles for the document preview, from the same rules the .docx engine
// uses (src/shared/specs/document-captions.ts): 表 N above captioned tables, 图 N below figures, `[@tbl:id]`
// shown as 表 N, and ordered lists in the template's list formats.
import type { List, Nodes, PhrasingContent, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { type HeadingNumbering, isReferencesHeading, listNumberFormats, type NumberingLevel } from '../../shared/specs/document';
import { CITATION, citationLabel, citedKeys } from '../../shared/specs/document-citations';
import type { CitationsView } from './document-report';
import {
  captionLabel,
  captionSeparator,
  captionText,
  collectCaptions,
  CROSS_REFERENCE,
  figureIdAfter,
  placeholderCaption,
  referenceKind,
  referencedIds,
} from '../../shared/specs/document-captions';
import { headingKey } from './heading-labels';

export type PreviewCaptions = {
  /** `表 1　caption` by the table's position key. */
  tables: Map<string, string>;
  /** `图 1　caption` by the image's position key. */
  figures: Map<string, string>;
  /** Caption paragraphs, shown with their table instead of where they stand. */
  hidden: Set<string>;
  /** `表 1` / `图 1` by id. */
  references: Map<string, string>;
};

function keyOf(section: number, node: Nodes): string | undefined {
  const offset = node.position?.start.offset;
  return offset === undefined ? undefined : headingKey(section, offset);
}

export function computeCaptions(sections: readonly string[], chinese: boolean): PreviewCaptions {
  const roots = sections.map((markdown) => unified().use(remarkParse).use(remarkGfm).parse(markdown));
  const found = collectCaptions(roots);
  const sectionOf = new Map<Nodes, number>();
  roots.forEach((root, i) => {
    const walk = (node: Nodes): void => {
      sectionOf.set(node, i);
      if ('children' in node) for (const child of node.children as Nodes[]) walk(child);
    };
    walk(root);
  });
  const out: PreviewCaptions = { tables: new Map(), figures: new Map(), hidden: new Set(), references: new Map() };
  const sep = captionSeparator(chinese);
  for (const [table, caption] of found.tables) {
    const key = keyOf(sectionOf.get(table) ?? 0, table);
    const text = caption.placeholder ? placeholderCaption(chinese) : captionText(caption.caption);
    if (key) out.tables.set(key, `${captionLabel('table', caption.number, chinese)}${text ? `${sep}${text}` : ''}`);
    const hidden = caption.paragraph && keyOf(sectionOf.get(caption.paragraph) ?? 0, caption.paragraph);
    if (hidden) out.hidden.add(hidden);
  }
  for (const [image, figure] of found.figures) {
    const key = keyOf(sectionOf.get(image) ?? 0, image);
    const text = (image.alt ?? '').trim();
    if (key) out.figures.set(key, `${captionLabel('figure', figure.number, chinese)}${text ? `${sep}${text}` : ''}`);
  }
  for (const [id, target] of found.ids) out.references.set(id, captionLabel(target.kind, target.number, chinese));
  return out;
}

/** What the preview needs of the render's citations: the numbers and list as the .docx has them. */
export type PreviewCitations = {
  view: CitationsView;
  /** This section holds the first references heading: the generated list goes under it. */
  listHere: boolean;
};

/** `[@key]` → the style's numbers (`[1,3-5]`, superscript in GB/T 7714), `?` for a key the render did not know. */
function citationNodes(value: string, view: CitationsView): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let at = 0;
  for (const match of value.matchAll(CITATION)) {
    const index = match.index ?? 0;
    if (index > at) out.push({ type: 'text', value: value.slice(at, index) });
    const label = citationLabel(citedKeys(match).map((key) => view.numbers.get(key) ?? null), view.look);
    out.push({ type: 'text', value: label, data: { hName: view.look.superscript ? 'sup' : 'span', hProperties: { className: ['doc-citation'], 'data-testid': 'doc-citation' } } });
    at = index + match[0].length;
  }
  if (out.length === 0) return [{ type: 'text', value }];
  if (at < value.length) out.push({ type: 'text', value: value.slice(at) });
  return out;
}

/** The generated reference list, `[1] …` in citation order, as a list the preview styles without bullets. */
export function referenceListNode(view: CitationsView): List {
  return {
    type: 'list',
    ordered: false,
    spread: false,
    data: { hProperties: { className: ['doc-references'], 'data-testid': 'doc-references' } },
    children: view.references.map((r) => ({ type: 'listItem', spread: false, children: [{ type: 'paragraph', children: [{ type: 'text', value: `[${r.number}] ${r.text}` }] }] })),
  };
}

/** Whether a section's Markdown has a references heading (参考文献, References…), where the generated list goes. */
export function hasReferencesHeading(markdown: string): boolean {
  const root = unified().use(remarkParse).use(remarkGfm).parse(markdown);
  return root.children.some((node) => node.type === 'heading' && isReferencesHeading(plainText(node).trim()));
}

function plainText(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  return 'children' in node ? (node.children as Nodes[]).map(plainText).join('') : '';
}

/**
 * A remark plugin for react-markdown: cross-references become their labels (an unknown id shows `表 ??`, as
 * in the .docx), citations their numbers with the reference list under the references heading,
 * `{#fig:id}` after an image disappears, and ordered lists carry their nesting depth for `listStyleFor`.
 */
export function remarkDocumentPreview(references: ReadonlyMap<string, string>, chinese: boolean, citations?: PreviewCitations) {
  const label = (id: string): string => references.get(id) ?? captionLabel(referenceKind(id), '??', chinese);
  return () =>
    (tree: Root): void => {
      const walk = (node: Nodes, depth: number): void => {
        if (node.type === 'list' && node.ordered) node.data = { ...node.data, hProperties: { 'data-depth': depth } };
        if (node.type === 'text') {
          node.value = node.value.replace(CROSS_REFERENCE, (...args: unknown[]) =>
            referencedIds(args as unknown as RegExpMatchArray).map(label).join(chinese ? '、' : ', '),
          );
        }
        if (node.type === 'paragraph') {
          node.children.forEach((child, i) => {
            const next = node.children[i + 1];
            const id = child.type === 'image' ? figureIdAfter(next) : undefined;
            if (id && next?.type === 'text') next.value = id.rest;
          });
        }
        if ('children' in node) {
          const nested = node.type === 'list' && node.ordered ? depth + 1 : depth;
          for (const child of node.children as Nodes[]) walk(child, nested);
          if (citations && node.type !== 'root' && node.type !== 'list') {
            const parent = node as { children: Nodes[] };
            parent.children = parent.children.flatMap((child): Nodes[] => (child.type === 'text' ? citationNodes(child.value, citations.view) : [child]));
          }
        }
      };
      walk(tree, 0);
      if (citations?.listHere && citations.view.references.length > 0) {
        // Under the first references heading, as the .docx writes it.
        const at = tree.children.findIndex((node) => node.type === 'heading' && isReferencesHeading(plainText(node).trim()));
        if (at >= 0) tree.children.splice(at + 1, 0, referenceListNode(citations.view));
      }
    };
}

/** The CSS list style of an ordered list at `depth`, from the template's list formats (styles.css defines the counter styles). */
export function listStyleFor(numbering: HeadingNumbering, depth: number): string {
  const formats = listNumberFormats[numbering];
  const level: NumberingLevel | undefined = formats[depth % formats.length];
  if (!level) return 'decimal';
  const paren = level.text.endsWith(')');
  switch (level.format) {
    case 'decimalEnclosedCircle':
      return 'folio-circled';
    case 'lowerLetter':
      return paren ? 'folio-lower-alpha-paren' : 'lower-alpha';
    case 'lowerRoman':
      return paren ? 'folio-lower-roman-paren' : 'lower-roman';
    default:
      return paren ? 'folio-decimal-paren' : 'decimal';
  }
}
