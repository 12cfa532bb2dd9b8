// Revising a person's own .docx: each edit becomes a Word tracked change by "Folio" with its reason
// as a comment, so they accept or reject it in Word, WPS or LibreOffice. Finds are matched on the
// visible text, exactly once, against the document as it was given; an edit that cannot be placed
// is reported with its reason, never guessed. Only the paragraphs a change touches are parsed
// into a tree and written back; every other byte of every part stays as it was.
import JSZip from 'jszip';
import { DOMParser, type Document, type Element, XMLSerializer } from '@xmldom/xmldom';
import { ValidationError } from '../../../shared/errors';
import { addComments, type DocxLayout, type NewComment, readLayout, type TextPart } from './docx-package';
import { type ParagraphSpan, rootNamespaces, scanParagraphs } from './part-scan';
import { applyHunk, deleteMark, type Revision, splitBefore, wEl } from './tracked-changes';
import { asTyped, findable, type FindableText, INVISIBLE, occurrences, onText, visibleOnly } from './find-text';
import { type Atom, markLock, OBJECT_CHAR, paragraphAtoms } from './visible-text';
import { type Hunk, wordDiff } from './word-diff';

export const REVISION_AUTHOR = 'Folio';

export interface DocxEdit {
  find: string;
  replace: string;
  reason: string;
}

export type EditStatus = 'applied' | 'not_found' | 'ambiguous' | 'overlaps' | 'locked' | 'invalid';

export interface EditPlace {
  /** body, footnotes, header... */
  part: string;
  /** 1-based, counting every paragraph of the part (table cells included) in reading order. */
  paragraph: number;
  excerpt: string;
}

export interface EditOutcome {
  /** 1-based, as the model numbered them. */
  edit: number;
  status: EditStatus;
  message: string;
  places?: EditPlace[];
}

export interface ReviseResult {
  /** The revised package; null when no edit applied (nothing worth writing). */
  bytes: Uint8Array | null;
  outcomes: EditOutcome[];
  applied: number;
  /** The body has Han characters (a Chinese document: the copy is named “（修订）”). */
  chinese: boolean;
}

export interface ReviseOptions {
  author?: string;
  date?: Date;
}

interface Paragraph {
  span: ParagraphSpan;
  doc: Document | null;
  element: Element | null;
  atoms: Atom[];
  changed: boolean;
}

interface Part extends FindableText {
  info: TextPart;
  xml: string;
  namespaces: string;
  paragraphs: Paragraph[];
  /** Visible text, paragraphs joined by "\n" (the paragraph marks). */
  text: string;
  /** For each character of `text`: its paragraph and its index among that paragraph's atoms (atoms.length: the mark). */
  where: { paragraph: number; local: number }[];
}

const parser = () => new DOMParser({ onError: () => undefined });

function parseParagraph(part: { xml: string; namespaces: string }, span: ParagraphSpan): { doc: Document; element: Element } {
  const raw = part.xml.slice(span.start, span.end);
  const doc = parser().parseFromString(`<folio-wrap${part.namespaces}>${raw}</folio-wrap>`, 'text/xml');
  const element = doc.documentElement?.firstChild;
  if (!element || element.nodeType !== 1) throw new ValidationError('A paragraph of the document could not be read.');
  return { doc, element: element as Element };
}

async function readPart(zip: JSZip, info: TextPart): Promise<Part> {
  const xml = (await zip.file(info.name)?.async('string')) ?? '';
  const namespaces = rootNamespaces(xml);
  if (!/xmlns:w="/u.test(namespaces)) throw new ValidationError(`${info.name} is not WordprocessingML.`);
  const part: Part = { info, xml, namespaces, paragraphs: [], text: '', where: [], plain: '', plainAt: [], joinsNames: false };
  const spans = scanParagraphs(xml);
  let text = '';
  spans.forEach((span, index) => {
    const { doc, element } = parseParagraph(part, span);
    const atoms = paragraphAtoms(element, span.openFields);
    part.paragraphs.push({ span, doc, element, atoms, changed: false });
    atoms.forEach((atom, local) => {
      text += atom.ch;
      part.where.push({ paragraph: index, local });
    });
    if (index < spans.length - 1) {
      text += '\n';
      part.where.push({ paragraph: index, local: atoms.length });
    }
  });
  part.text = text;
  Object.assign(part, findable(text));
  return part;
}

function place(part: Part, at: number): EditPlace {
  const where = part.where[at] ?? { paragraph: 0, local: 0 };
  const from = Math.max(0, at - 15);
  const excerpt = part.text.slice(from, at + 25).replace(/\s+/gu, ' ').trim();
  return { part: part.info.label, paragraph: where.paragraph + 1, excerpt: `${from > 0 ? '…' : ''}${excerpt}…` };
}

interface Claim {
  edit: number;
  part: Part;
  start: number;
  end: number;
  hunks: Hunk[];
}

/** Why a hunk may not be written here, or null. */
function lockOf(part: Part, start: number, hunk: Hunk): string | null {
  const from = start + hunk.from;
  const to = start + hunk.to;
  for (let i = from; i < to; i++) {
    const where = part.where[i];
    if (!where) continue;
    const paragraph = part.paragraphs[where.paragraph];
    if (!paragraph) continue;
    if (where.local === paragraph.atoms.length) {
      const next = part.paragraphs[where.paragraph + 1];
      if (next && next.span.container !== paragraph.span.container) return 'across a table cell, note or text box boundary';
      const lock = paragraph.element ? markLock(paragraph.element) : null;
      if (lock) return lock;
      continue;
    }
    const atom = paragraph.atoms[where.local];
    if (atom?.locked) return atom.locked;
  }
  if (hunk.insert !== '' && from === to) {
    const atomAt = (i: number): Atom | null => {
      const where = part.where[i];
      const paragraph = where && part.paragraphs[where.paragraph];
      return paragraph?.atoms[where.local] ?? null;
    };
    const before = from > 0 ? atomAt(from - 1) : null;
    const after = atomAt(from);
    if ((before?.locked ?? null) !== null && (after === null || after.locked !== null)) return before?.locked ?? null;
    if (before === null && after?.locked) return after.locked;
  }
  return null;
}

function checkEdit(edit: DocxEdit): string | null {
  if (edit.find === '') return '`find` is empty.';
  if (edit.find === edit.replace) return '`replace` is the same as `find`.';
  return null;
}

/** A find that is there once a picture, symbol or note reference between its words is ignored. */
function acrossObject(parts: Part[], find: string): { lock: string; place: EditPlace } | null {
  for (const part of parts) {
    const kept: number[] = [];
    let stripped = '';
    for (let i = 0; i < part.text.length; i++) {
      if (part.text[i] === OBJECT_CHAR || INVISIBLE.test(part.text[i] ?? '')) continue;
      kept.push(i);
      stripped += part.text[i];
    }
    const at = stripped.indexOf(find);
    if (at < 0) continue;
    const from = kept[at] ?? 0;
    const to = kept[at + find.length - 1] ?? from;
    for (let i = from; i <= to; i++) {
      const where = part.where[i];
      const atom = where ? part.paragraphs[where.paragraph]?.atoms[where.local] : undefined;
      if (atom?.ch === OBJECT_CHAR) return { lock: atom.locked ?? 'at an object', place: place(part, from) };
    }
  }
  return null;
}

function notFoundMessage(parts: Part[], find: string): string {
  const squeeze = (s: string): string => s.replace(/\s+/gu, '');
  const loose = squeeze(find);
  if (loose !== '' && parts.some((p) => squeeze(p.plain).includes(loose))) {
    return 'Not found exactly; the same text is there with different spacing or line breaks. Copy the text as the document has it.';
  }
  return 'Not found in the document (body, tables, notes, headers, footers). Copy the text exactly as the document shows it.';
}

export async function reviseDocx(input: Uint8Array, edits: readonly DocxEdit[], options: ReviseOptions = {}): Promise<ReviseResult> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(input);
  } catch {
    throw new ValidationError('Not a .docx file: it is not a zip package.');
  }
  const layout: DocxLayout = await readLayout(zip);
  const parts: Part[] = [];
  for (const info of layout.parts) parts.push(await readPart(zip, info));

  const outcomes: EditOutcome[] = [];
  const claims: Claim[] = [];
  edits.forEach((edit, i) => {
    const n = i + 1;
    const invalid = checkEdit(edit);
    if (invalid) return outcomes.push({ edit: n, status: 'invalid', message: invalid });
    const find = asTyped(visibleOnly(edit.find));
    if (find === '') return outcomes.push({ edit: n, status: 'invalid', message: '`find` holds only invisible characters.' });
    const found = parts.flatMap((part) => occurrences(part, find).map((o) => ({ part, ...o })));
    if (found.length === 0) {
      const object = acrossObject(parts, find);
      if (object) return outcomes.push({ edit: n, status: 'locked', message: `The text runs ${object.lock}; Folio does not change that. Edit the text on either side of it separately.`, places: [object.place] });
      return outcomes.push({ edit: n, status: 'not_found', message: notFoundMessage(parts, find) });
    }
    if (found.length > 1) {
      const places = found.slice(0, 10).map(({ part, at }) => place(part, at));
      const list = places.map((p) => `${p.part} ¶${p.paragraph} “${p.excerpt}”`).join('; ');
      return outcomes.push({ edit: n, status: 'ambiguous', message: `Found ${found.length} times (${list}): add words around it so it occurs once.`, places });
    }
    const { part, at, end } = found[0];
    const clash = claims.find((c) => c.part === part && c.start < end && at < c.end);
    if (clash) return outcomes.push({ edit: n, status: 'overlaps', message: `Overlaps edit ${clash.edit}: merge the two into one edit.`, places: [place(part, at)] });
    const hunks = wordDiff(find, visibleOnly(edit.replace)).map((hunk) => onText(part, at, hunk, end));
    if (hunks.some((h) => /[\r\n]/u.test(h.insert))) {
      return outcomes.push({ edit: n, status: 'invalid', message: '`replace` adds a line or paragraph break: new paragraphs are not tracked here; edit each paragraph on its own.', places: [place(part, at)] });
    }
    for (const hunk of hunks) {
      const lock = lockOf(part, at, hunk);
      if (lock) return outcomes.push({ edit: n, status: 'locked', message: `The change falls ${lock}; Folio does not change that. Leave it to the person or edit around it.`, places: [place(part, at)] });
    }
    claims.push({ edit: n, part, start: at, end, hunks });
    outcomes.push({ edit: n, status: 'applied', message: part.info.commentable ? 'Applied.' : `Applied (in the ${part.info.label}, where Word keeps no comments: the reason is not attached).`, places: [place(part, at)] });
  });
  outcomes.sort((a, b) => a.edit - b.edit);
  const chinese = /\p{Script=Han}/u.test(parts[0]?.text ?? '');
  if (claims.length === 0) return { bytes: null, outcomes, applied: 0, chinese };

  const author = options.author ?? REVISION_AUTHOR;
  const date = (options.date ?? new Date()).toISOString().replace(/\.\d{3}Z$/u, 'Z');
  let maxId = 0;
  const commentsXml = layout.comments ? ((await zip.file(layout.comments)?.async('string')) ?? '') : '';
  for (const xml of [...parts.map((p) => p.xml), commentsXml]) for (const m of xml.matchAll(/w:id="(-?\d+)"/gu)) maxId = Math.max(maxId, Number(m[1]));
  let next = maxId;
  const rev: Revision = { author, date, nextId: () => ++next };
  const comments: NewComment[] = [];

  // Last to first within a part: writing an edit changes the atoms after it, never those before.
  const writeOrder = [...claims].sort((a, b) => (a.part === b.part ? b.start - a.start : 0));
  for (const claim of writeOrder) writeClaim(claim, rev, comments, edits[claim.edit - 1]?.reason ?? '', author);
  comments.sort((a, b) => a.id - b.id);

  for (const part of parts) {
    const changed = part.paragraphs.filter((p) => p.changed);
    if (changed.length === 0) continue;
    let xml = part.xml;
    for (const paragraph of [...changed].sort((a, b) => b.span.start - a.span.start)) {
      xml = xml.slice(0, paragraph.span.start) + serializeParagraph(paragraph) + xml.slice(paragraph.span.end);
    }
    zip.file(part.info.name, xml);
  }
  await addComments(zip, layout, comments);
  const bytes = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 6 } });
  return { bytes, outcomes, applied: claims.length, chinese };
}

function serializeParagraph(paragraph: Paragraph): string {
  const xml = new XMLSerializer().serializeToString(paragraph.doc as Document);
  const open = xml.indexOf('>', xml.indexOf('<folio-wrap')) + 1;
  const close = xml.lastIndexOf('</folio-wrap>');
  return xml.slice(open, close);
}

interface Segment {
  paragraph: number;
  from: number;
  to: number;
  insert: string;
  insertHere: boolean;
  deletesMark: boolean;
}

/** A claimed edit's hunks, per paragraph, written last to first so earlier atom indices stay valid. */
function writeClaim(claim: Claim, rev: Revision, comments: NewComment[], reason: string, author: string): void {
  const { part } = claim;
  const atomCount = (paragraph: number): number => part.paragraphs[paragraph]?.atoms.length ?? 0;
  const segments: Segment[] = [];
  for (const hunk of claim.hunks) {
    const from = claim.start + hunk.from;
    const to = claim.start + hunk.to;
    if (from === to) {
      // At the very end of the part's text there is no character to stand on: after the last one.
      const at = part.where[from];
      const last = part.where[from - 1];
      const where = at ?? (last ? { paragraph: last.paragraph, local: last.local + 1 } : null);
      if (where) segments.push({ paragraph: where.paragraph, from: where.local, to: where.local, insert: hunk.insert, insertHere: true, deletesMark: false });
      continue;
    }
    let first = true;
    for (let i = from; i < to; ) {
      const where = part.where[i];
      if (!where) break;
      const count = atomCount(where.paragraph);
      if (where.local === count) {
        segments.push({ paragraph: where.paragraph, from: count, to: count, insert: hunk.insert, insertHere: first, deletesMark: true });
        i++;
      } else {
        const length = Math.min(to - i, count - where.local);
        segments.push({ paragraph: where.paragraph, from: where.local, to: where.local + length, insert: hunk.insert, insertHere: first, deletesMark: false });
        i += length;
      }
      first = false;
    }
  }
  segments.sort((a, b) => b.paragraph - a.paragraph || b.from - a.from);
  const written: { key: number; first: Element | null; last: Element | null }[] = [];
  for (const seg of segments) {
    const paragraph = part.paragraphs[seg.paragraph];
    if (!paragraph?.element) continue;
    const el = paragraph.element;
    const atomsNow = (): Atom[] => paragraphAtoms(el, paragraph.span.openFields);
    if (seg.deletesMark) deleteMark(el, rev);
    splitBefore(atomsNow(), seg.to);
    splitBefore(atomsNow(), seg.from);
    const nodes = applyHunk(el, atomsNow(), seg.from, seg.to, seg.insert, seg.insertHere, rev);
    paragraph.changed = true;
    written.push({ key: seg.paragraph * 1e7 + seg.from, ...nodes });
  }
  const withFirst = written.filter((w) => w.first).sort((a, b) => a.key - b.key);
  const withLast = written.filter((w) => w.last).sort((a, b) => a.key - b.key);
  const firstNode = withFirst[0]?.first ?? null;
  const lastNode = withLast[withLast.length - 1]?.last ?? null;
  if (!part.info.commentable || reason.trim() === '') return;
  const id = rev.nextId();
  const startParagraph = part.paragraphs[segments[segments.length - 1]?.paragraph ?? 0];
  const endParagraph = part.paragraphs[segments[0]?.paragraph ?? 0];
  const anchorStart = firstNode;
  const anchorEnd = lastNode;
  const doc = (anchorStart ?? startParagraph?.element)?.ownerDocument ?? null;
  if (!doc) return;
  const rangeStart = wEl(doc, 'commentRangeStart', { id: String(id) });
  const rangeEnd = wEl(doc, 'commentRangeEnd', { id: String(id) });
  const reference = wEl(doc, 'r');
  reference.appendChild(wEl(doc, 'commentReference', { id: String(id) }));
  if (anchorStart) anchorStart.parentNode?.insertBefore(rangeStart, anchorStart);
  else startParagraph?.element?.appendChild(rangeStart);
  if (anchorEnd) {
    anchorEnd.parentNode?.insertBefore(rangeEnd, anchorEnd.nextSibling);
    anchorEnd.parentNode?.insertBefore(reference, rangeEnd.nextSibling);
  } else {
    endParagraph?.element?.appendChild(rangeEnd);
    endParagraph?.element?.appendChild(reference);
  }
  if (startParagraph) startParagraph.changed = true;
  if (endParagraph) endParagraph.changed = true;
  comments.push({ id, author, initials: author.slice(0, 1), date: rev.date, text: reason.trim() });
}
