// Captions and cross-references in a document folder's Markdown, in pandoc-crossref's syntax so the same
// files work with pandoc too:
//   - a table's caption is a paragraph right before (preferred) or right after it that starts with
//     `Table:`, `表：`/`表:` or `: `, optionally ending in an id: `表：主要实验数据集 {#tbl:datasets}`;
//   - a figure is an image in its own paragraph flow, its alt text the caption, optionally followed by an
//     id: `![总体框架](figures/framework.png){#fig:framework}`;
//   - `[@tbl:datasets]`, `[@fig:framework]` (or bare `@tbl:datasets`) refer to them; `[@tbl:a; @tbl:b]` to several.
// Every table and every figure is numbered; a table without a caption shows a placeholder caption. Numbers run through the
// whole document, in reading order. Pure functions over mdast, shared by the .docx engine and the preview.
import type { Image, Nodes, Paragraph, PhrasingContent, Root, RootContent, Table } from 'mdast';

export type CaptionKind = 'table' | 'figure';

/**
 * A numbered table. `placeholder`: it has no caption paragraph; it is numbered all the same (so a caption
 * added later changes no other number) and shows `placeholderCaption` until one is written.
 */
export type TableCaption = { number: number; id?: string; caption: PhrasingContent[]; paragraph: Paragraph | null; placeholder: boolean };
export type FigureNumber = { number: number; id?: string };

export type DocumentCaptions = {
  tables: Map<Table, TableCaption>;
  figures: Map<Image, FigureNumber>;
  /** Paragraphs that are a table's caption, written with the table rather than where they stand. */
  captionParagraphs: Set<Paragraph>;
  /** Every id, with what it names. */
  ids: Map<string, { kind: CaptionKind; number: number }>;
  /** Ids given to more than one table or figure (the first keeps the id). */
  duplicateIds: string[];
};

const TABLE_CAPTION_PREFIX = /^\s*(?:(?:Table|表)\s*[:：]|:(?=\s))\s*/iu;
const ID = '(?:tbl|fig):[A-Za-z0-9_-]+(?:[.:][A-Za-z0-9_-]+)*';
const TRAILING_ID = new RegExp(`\\s*\\{#(${ID})\\}\\s*$`, 'u');
const LEADING_ID = new RegExp(`^[ \\t]*\\{#(${ID})\\}`, 'u');
/** `[@tbl:a]`, `[@tbl:a; @fig:b]`, or a bare `@tbl:a` not preceded by a letter, digit or `@` (so e-mail addresses are left alone). */
export const CROSS_REFERENCE = new RegExp(`\\[@(${ID}(?:\\s*[;,]\\s*@${ID})*)\\]|(?<![A-Za-z0-9_@])@(${ID})`, 'gu');

/** The heading over a document's table of contents, in the document's language (the preview shows what the .docx says). */
export function contentsHeading(chinese: boolean): string {
  return chinese ? '目　录' : 'Contents';
}

/** What an uncaptioned table's caption says until the author writes one. */
export function placeholderCaption(chinese: boolean): string {
  return chinese ? '【待补充表题】' : '[caption needed]';
}

export function captionLabel(kind: CaptionKind, n: number | string, chinese: boolean): string {
  if (chinese) return `${kind === 'table' ? '表' : '图'} ${n}`;
  return `${kind === 'table' ? 'Table' : 'Figure'} ${n}`;
}

/** What follows the label before the caption text: an ideographic space in Chinese, `. ` otherwise. */
export function captionSeparator(chinese: boolean): string {
  return chinese ? '　' : '. ';
}

export function referenceKind(id: string): CaptionKind {
  return id.startsWith('tbl:') ? 'table' : 'figure';
}

/** The ids a cross-reference match names (`[@tbl:a; @tbl:b]` names two). */
export function referencedIds(match: RegExpMatchArray): string[] {
  const group = match[1] ?? match[2] ?? '';
  return group.split(/\s*[;,]\s*/u).map((part) => part.replace(/^@/u, ''));
}

function textOf(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string' && node.type !== 'html') return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(textOf).join('');
  return '';
}

function isTableCaption(node: RootContent | undefined): node is Paragraph {
  if (node?.type !== 'paragraph') return false;
  const first = node.children[0];
  return first?.type === 'text' && TABLE_CAPTION_PREFIX.test(first.value) && !node.children.some((c) => c.type === 'image');
}

/** A caption paragraph's content without its `表：` prefix and `{#tbl:id}` suffix, and the id. */
export function parseTableCaption(paragraph: Paragraph): { caption: PhrasingContent[]; id?: string } {
  const children = [...paragraph.children];
  const first = children[0];
  if (first?.type === 'text') children[0] = { ...first, value: first.value.replace(TABLE_CAPTION_PREFIX, '') };
  const lastIndex = children.length - 1;
  const last = children[lastIndex];
  let id: string | undefined;
  if (last?.type === 'text') {
    const m = TRAILING_ID.exec(last.value);
    if (m) {
      id = m[1];
      children[lastIndex] = { ...last, value: last.value.slice(0, m.index) };
    }
  }
  return { caption: children.filter((c) => c.type !== 'text' || c.value !== ''), ...(id ? { id } : {}) };
}

/** The `{#fig:id}` written right after an image, and the text that remains after it. */
export function figureIdAfter(next: PhrasingContent | undefined): { id: string; rest: string } | undefined {
  if (next?.type !== 'text') return undefined;
  const m = LEADING_ID.exec(next.value);
  return m?.[1] ? { id: m[1], rest: next.value.slice(m[0].length) } : undefined;
}

/**
 * The caption paragraph each table takes: the one right before it (GB/T 7713 and NSFC set a table's caption above
 * it), else the one right after it (pandoc's other place). A caption between two tables goes to the one below,
 * unless that table has a caption right after it too: then the writer puts captions after their tables.
 */
function captionedTables(siblings: readonly RootContent[]): Map<Table, Paragraph> {
  const out = new Map<Table, Paragraph>();
  const used = new Set<Paragraph>();
  const opensNextTable = (at: number): boolean => siblings[at + 1]?.type === 'table' && !isTableCaption(siblings[at + 2]);
  siblings.forEach((node, i) => {
    if (node.type !== 'table') return;
    const before = siblings[i - 1];
    const after = siblings[i + 1];
    const caption = isTableCaption(before) && !used.has(before) ? before : isTableCaption(after) && !opensNextTable(i + 1) ? after : undefined;
    if (caption) {
      out.set(node, caption);
      used.add(caption);
    }
  });
  return out;
}

/** Numbers every captioned table and every figure across the sections, in order, and collects their ids. */
export function collectCaptions(roots: readonly Root[]): DocumentCaptions {
  const result: DocumentCaptions = { tables: new Map(), figures: new Map(), captionParagraphs: new Set(), ids: new Map(), duplicateIds: [] };
  let tables = 0;
  let figures = 0;
  const name = (id: string | undefined, kind: CaptionKind, number: number): string | undefined => {
    if (!id) return undefined;
    if (result.ids.has(id) || referenceKind(id) !== kind) {
      result.duplicateIds.push(id);
      return undefined;
    }
    result.ids.set(id, { kind, number });
    return id;
  };
  const visit = (nodes: readonly RootContent[]): void => {
    const captions = captionedTables(nodes);
    for (const node of nodes) {
      if (node.type === 'table') {
        const paragraph = captions.get(node);
        tables += 1;
        if (!paragraph) {
          result.tables.set(node, { number: tables, caption: [], paragraph: null, placeholder: true });
          continue;
        }
        const parsed = parseTableCaption(paragraph);
        const id = name(parsed.id, 'table', tables);
        result.tables.set(node, { number: tables, caption: parsed.caption, paragraph, placeholder: false, ...(id ? { id } : {}) });
        result.captionParagraphs.add(paragraph);
      } else if (node.type === 'paragraph') {
        node.children.forEach((child, i) => {
          if (child.type !== 'image') return;
          figures += 1;
          const id = name(figureIdAfter(node.children[i + 1])?.id, 'figure', figures);
          result.figures.set(child, { number: figures, ...(id ? { id } : {}) });
        });
      } else if (node.type === 'list') {
        for (const item of node.children) visit(item.children);
      } else if (node.type === 'blockquote') {
        visit(node.children);
      }
    }
  };
  for (const root of roots) visit(root.children);
  return result;
}

/** A caption paragraph's plain text (for previews and measuring). */
export function captionText(caption: readonly PhrasingContent[]): string {
  return caption.map(textOf).join('').trim();
}
