// Writes hunks into a parsed paragraph as Word's own tracked changes: runs split where a change
// starts or ends (formatting copied), deleted runs wrapped in w:del with w:delText, the new text in
// a w:ins run formatted like the text it replaces, a deleted paragraph break in w:pPr/w:rPr/w:del.
import type { Document, Element, Node } from '@xmldom/xmldom';
import { type Atom, elementChildren, W_NS } from './visible-text';

const XML_NS = 'http://www.w3.org/XML/1998/namespace';

export interface Revision {
  author: string;
  /** ISO 8601 without fractions, as Word writes it. */
  date: string;
  nextId: () => number;
}

/** The document an element belongs to (xmldom types it nullable; a parsed element always has one). */
export function docOf(el: Element): Document {
  const doc = el.ownerDocument;
  if (!doc) throw new Error('element without a document');
  return doc;
}

export function wEl(doc: Document, name: string, attrs: Record<string, string> = {}): Element {
  const el = doc.createElementNS(W_NS, `w:${name}`);
  for (const [key, value] of Object.entries(attrs)) el.setAttributeNS(W_NS, `w:${key}`, value);
  return el;
}

function revisionEl(doc: Document, name: 'ins' | 'del', rev: Revision): Element {
  return wEl(doc, name, { id: String(rev.nextId()), author: rev.author, date: rev.date });
}

/**
 * Splits the run holding atom `index` so that a run boundary falls before it. Returns whether the
 * tree changed (the caller recomputes its atoms).
 */
export function splitBefore(atoms: readonly Atom[], index: number): boolean {
  const before = atoms[index - 1];
  const at = atoms[index];
  if (!before || !at || !at.run || before.run !== at.run || !at.node) return false;
  const run = at.run;
  const doc = docOf(run);
  const second = doc.createElementNS(W_NS, 'w:r');
  const rPr = elementChildren(run).find((el) => el.nodeName === 'w:rPr');
  if (rPr) second.appendChild(rPr.cloneNode(true));
  let moveFrom: Node | null = at.node;
  if (at.node === before.node && at.offset > 0) {
    // Cut one w:t in two.
    const text = at.node.textContent ?? '';
    const tail = wEl(doc, 't');
    tail.setAttributeNS(XML_NS, 'xml:space', 'preserve');
    tail.appendChild(doc.createTextNode(text.slice(at.offset)));
    while (at.node.firstChild) at.node.removeChild(at.node.firstChild);
    at.node.appendChild(doc.createTextNode(text.slice(0, at.offset)));
    at.node.setAttributeNS(XML_NS, 'xml:space', 'preserve');
    second.appendChild(tail);
    moveFrom = at.node.nextSibling;
  }
  while (moveFrom) {
    const next: Node | null = moveFrom.nextSibling;
    second.appendChild(moveFrom);
    moveFrom = next;
  }
  run.parentNode?.insertBefore(second, run.nextSibling);
  return true;
}

/** The element a new sibling goes next to: out of wrappers a Folio change may not nest in. */
function anchorOf(run: Element): Element {
  let anchor = run;
  while (anchor.parentNode && ['w:ins', 'w:del', 'w:moveTo', 'w:fldSimple'].includes(anchor.parentNode.nodeName)) anchor = anchor.parentNode as Element;
  return anchor;
}

function insertAfter(node: Node, ref: Node): void {
  ref.parentNode?.insertBefore(node, ref.nextSibling);
}

function cleanRunProps(rPr: Element | undefined): Element | null {
  if (!rPr) return null;
  const copy = rPr.cloneNode(true) as Element;
  for (const child of elementChildren(copy)) {
    if (['w:ins', 'w:del', 'w:moveFrom', 'w:moveTo', 'w:rPrChange'].includes(child.nodeName)) copy.removeChild(child);
  }
  return copy;
}

function insertionRun(doc: Document, text: string, rPr: Element | null): Element {
  const run = wEl(doc, 'r');
  if (rPr) run.appendChild(rPr);
  text.split('\t').forEach((piece, i) => {
    if (i > 0) run.appendChild(wEl(doc, 'tab'));
    if (piece === '') return;
    const t = wEl(doc, 't');
    t.setAttributeNS(XML_NS, 'xml:space', 'preserve');
    t.appendChild(doc.createTextNode(piece));
    run.appendChild(t);
  });
  return run;
}

function toDeleted(run: Element): void {
  const doc = docOf(run);
  for (const child of elementChildren(run)) {
    if (child.nodeName !== 'w:t') continue;
    const del = wEl(doc, 'delText');
    del.setAttributeNS(XML_NS, 'xml:space', 'preserve');
    while (child.firstChild) del.appendChild(child.firstChild);
    run.replaceChild(del, child);
  }
}

/** Marks a paragraph's own break as deleted: accepting joins it with the next paragraph. */
export function deleteMark(paragraph: Element, rev: Revision): Element {
  const doc = docOf(paragraph);
  let pPr = elementChildren(paragraph).find((el) => el.nodeName === 'w:pPr');
  if (!pPr) {
    pPr = wEl(doc, 'pPr');
    paragraph.insertBefore(pPr, paragraph.firstChild);
  }
  let rPr = elementChildren(pPr).find((el) => el.nodeName === 'w:rPr');
  if (!rPr) {
    rPr = wEl(doc, 'rPr');
    const after = elementChildren(pPr).find((el) => ['w:sectPr', 'w:pPrChange'].includes(el.nodeName));
    pPr.insertBefore(rPr, after ?? null);
  }
  const del = revisionEl(doc, 'del', rev);
  const ins = elementChildren(rPr).find((el) => el.nodeName === 'w:ins');
  rPr.insertBefore(del, ins ? ins.nextSibling : rPr.firstChild);
  return del;
}

export interface HunkNodes {
  /** The first and last elements written for the hunk, where a comment's range starts and ends. */
  first: Element | null;
  last: Element | null;
}

/**
 * One hunk inside one paragraph: `atoms` are the paragraph's (runs already split at the hunk's
 * edges), `from`/`to` the deleted atoms, `insert` the new text (placed where the deletion starts).
 * `insertHere` is false for the later paragraphs of a hunk spanning several.
 */
export function applyHunk(paragraph: Element, atoms: readonly Atom[], from: number, to: number, insert: string, insertHere: boolean, rev: Revision): HunkNodes {
  const doc = docOf(paragraph);
  const deleted: Element[] = [];
  for (let i = from; i < to; i++) {
    const run = atoms[i]?.run;
    if (run && !deleted.includes(run)) deleted.push(run);
  }
  const wrappers: Element[] = [];
  let group: Element | null = null;
  let previous: Node | null = null;
  for (const run of deleted) {
    if (!group || !previous || previous.nextSibling !== run) {
      group = revisionEl(doc, 'del', rev);
      run.parentNode?.insertBefore(group, run);
      wrappers.push(group);
    }
    previous = run;
    toDeleted(run);
    group.appendChild(run);
  }
  let inserted: Element | null = null;
  if (insertHere && insert !== '') {
    const source = deleted[0] ?? atoms[from - 1]?.run ?? atoms[from]?.run ?? null;
    const rPr = source ? cleanRunProps(elementChildren(source).find((el) => el.nodeName === 'w:rPr')) : null;
    inserted = revisionEl(doc, 'ins', rev);
    inserted.appendChild(insertionRun(doc, insert, rPr));
    const lastWrapper = wrappers[wrappers.length - 1];
    const before = atoms[from - 1]?.run;
    const after = atoms[from]?.run;
    if (lastWrapper) insertAfter(inserted, lastWrapper);
    else if (before) insertAfter(inserted, anchorOf(before));
    else if (after) anchorOf(after).parentNode?.insertBefore(inserted, anchorOf(after));
    else paragraph.appendChild(inserted);
  }
  return { first: wrappers[0] ?? inserted, last: inserted ?? wrappers[wrappers.length - 1] ?? null };
}
