// The preview data of a revised .docx: the body's paragraphs in reading order (table cells included) as
// segments of unchanged, inserted and deleted text with their authors, and the comments anchored in each.
// Read from the package itself, so it shows what Word will show, another reviewer's changes included.
import JSZip from 'jszip';
import { DOMParser, type Element, type Node } from '@xmldom/xmldom';
import { type RevisedDocument, type RevisionComment, type RevisionParagraph, type RevisionSegment } from '../../../shared/specs/document-revision';
import { readLayout } from './docx-package';
import { listNumbering } from './list-numbers';
import { W_NS } from './visible-text';

/** Enough for a 60-page proposal; longer bodies are cut and say so. */
export const MAX_PREVIEW_PARAGRAPHS = 3000;

const HEADING_STYLE = /^(heading|标题|title)\s*\d*$/iu;

const parse = (xml: string) => new DOMParser({ onError: () => undefined }).parseFromString(xml, 'text/xml');

function elements(node: Node): Element[] {
  const out: Element[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) out.push(c as Element);
  return out;
}

function wAttr(el: Element, name: string): string | null {
  return el.getAttributeNS(W_NS, name) || el.getAttribute(`w:${name}`) || null;
}

/** The nearest enclosing w:`name` element. */
function closest(el: Element, name: string): Element | null {
  for (let n = el.parentNode; n; n = n.parentNode) {
    if (n.nodeType === 1 && (n as Element).localName === name && (n as Element).namespaceURI === W_NS) return n as Element;
  }
  return null;
}

function textOf(el: Element): string {
  return el.textContent ?? '';
}

async function readComments(zip: JSZip, name: string | null): Promise<Map<string, RevisionComment>> {
  const out = new Map<string, RevisionComment>();
  const xml = name ? await zip.file(name)?.async('string') : undefined;
  if (!xml) return out;
  for (const c of Array.from(parse(xml).getElementsByTagNameNS(W_NS, 'comment'))) {
    const id = wAttr(c, 'id');
    if (id === null) continue;
    const text = Array.from(c.getElementsByTagNameNS(W_NS, 'p'))
      .map(textOf)
      .join('\n')
      .trim();
    out.set(id, { id, author: wAttr(c, 'author') ?? '', text });
  }
  return out;
}

function isHeading(p: Element): boolean {
  const pPr = elements(p).find((e) => e.localName === 'pPr');
  if (!pPr) return false;
  for (const e of elements(pPr)) {
    if (e.localName === 'pStyle' && HEADING_STYLE.test(wAttr(e, 'val') ?? '')) return true;
    if (e.localName === 'outlineLvl' && Number(wAttr(e, 'val')) < 9) return true;
  }
  return false;
}

/** One paragraph's segments and comment anchors; nested paragraphs (text boxes) are read on their own. */
function readParagraph(p: Element, comments: Map<string, RevisionComment>, number: string | null): RevisionParagraph {
  const segments: RevisionSegment[] = [];
  const anchored: RevisionComment[] = [];
  const push = (text: string, change: RevisionSegment['change'], author: string | null): void => {
    if (text === '') return;
    const last = segments[segments.length - 1];
    if (last && last.change === change && last.author === author) last.text += text;
    else segments.push({ text, change, author });
  };
  const walk = (node: Element, change: RevisionSegment['change'], author: string | null): void => {
    for (const el of elements(node)) {
      switch (el.localName) {
        case 'pPr':
        case 'rPr':
        case 'p':
        case 'txbxContent':
          continue;
        case 'ins':
        case 'moveTo':
          walk(el, 'ins', wAttr(el, 'author'));
          continue;
        case 'del':
        case 'moveFrom':
          walk(el, 'del', wAttr(el, 'author'));
          continue;
        case 't':
        case 'delText':
          push(textOf(el), change, author);
          continue;
        case 'tab':
          push('\t', change, author);
          continue;
        case 'br':
        case 'cr':
          push('\n', change, author);
          continue;
        case 'noBreakHyphen':
          push('-', change, author);
          continue;
        case 'commentRangeStart': {
          const comment = comments.get(wAttr(el, 'id') ?? '');
          if (comment && !anchored.includes(comment)) anchored.push(comment);
          continue;
        }
        default:
          walk(el, change, author);
      }
    }
  };
  walk(p, null, null);
  return { heading: isHeading(p), ...(number === null ? {} : { number }), segments, comments: anchored };
}

/** The revised document as the preview draws it. */
export async function revisionPreview(bytes: Uint8Array, source: string | null): Promise<RevisedDocument> {
  const zip = await JSZip.loadAsync(bytes);
  const layout = await readLayout(zip);
  const comments = await readComments(zip, layout.comments);
  const part = async (name: string | null): Promise<string | null> => (name ? ((await zip.file(name)?.async('string')) ?? null) : null);
  const numberOf = listNumbering(await part(layout.numbering), await part(layout.styles));
  const xml = (await zip.file(layout.main)?.async('string')) ?? '';
  const body = parse(xml).getElementsByTagNameNS(W_NS, 'body')[0];
  const paragraphs: RevisionParagraph[] = [];
  const counts = new Map<string, { insertions: number; deletions: number }>();
  let total = 0;
  if (body) {
    // The paragraphs of one table row become one row of cells.
    type Row = { element: Element; cell: Element | null; paragraph: RevisionParagraph & { cells: RevisionSegment[][] } };
    let row = null as Row | null;
    for (const p of Array.from(body.getElementsByTagNameNS(W_NS, 'p'))) {
      total += 1;
      const paragraph = readParagraph(p, comments, numberOf(p));
      for (const s of paragraph.segments) {
        if (s.change === null) continue;
        const count = counts.get(s.author ?? '') ?? { insertions: 0, deletions: 0 };
        if (s.change === 'ins') count.insertions += 1;
        else count.deletions += 1;
        counts.set(s.author ?? '', count);
      }
      const cell = closest(p, 'tc');
      const tr = cell && closest(cell, 'tr');
      if (!cell || !tr) {
        row = null;
        if (paragraphs.length < MAX_PREVIEW_PARAGRAPHS) paragraphs.push(paragraph);
        continue;
      }
      if (row?.element !== tr) {
        row = { element: tr, cell: null, paragraph: { heading: false, segments: [], comments: [], cells: [] } };
        if (paragraphs.length < MAX_PREVIEW_PARAGRAPHS) paragraphs.push(row.paragraph);
      }
      const cells = row.paragraph.cells;
      if (row.cell !== cell) {
        row.cell = cell;
        cells.push([]);
      } else {
        cells[cells.length - 1]?.push({ text: '\n', change: null, author: null });
      }
      cells[cells.length - 1]?.push(...paragraph.segments);
      row.paragraph.comments.push(...paragraph.comments);
    }
  }
  return {
    source,
    paragraphs,
    truncated: total > paragraphs.length,
    changes: [...counts].map(([author, c]) => ({ author, ...c })),
  };
}
