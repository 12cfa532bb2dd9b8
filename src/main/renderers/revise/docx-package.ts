// The package side of a revision: which parts hold revisable text, and the comments part (found
// through the main document's relationships, added with its content type and relationship only
// when the document has none). Parts are edited as text, so what Folio does not change keeps its bytes.
import type JSZip from 'jszip';
import { posix } from 'node:path';
import { ValidationError } from '../../../shared/errors';
import { W_NS } from './visible-text';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const COMMENTS_TYPE = `${REL}/comments`;
const COMMENTS_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml';

export interface TextPart {
  /** Zip entry name, e.g. `word/footnotes.xml`. */
  name: string;
  /** How the person knows it: body, footnotes, endnotes, header, footer. */
  label: string;
  /** Word keeps comments in the body and in notes, not in headers and footers. */
  commentable: boolean;
}

interface Relationship {
  id: string;
  type: string;
  target: string;
}

function attr(tag: string, name: string): string | null {
  const m = new RegExp(`\\s${name}="([^"]*)"`, 'u').exec(tag);
  return m ? (m[1] ?? null) : null;
}

function relationships(xml: string): Relationship[] {
  return [...xml.matchAll(/<Relationship\b[^>]*>/gu)].map((m) => ({ id: attr(m[0], 'Id') ?? '', type: attr(m[0], 'Type') ?? '', target: attr(m[0], 'Target') ?? '' }));
}

function relsName(part: string): string {
  return posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`);
}

async function text(zip: JSZip, name: string): Promise<string | null> {
  const file = zip.file(name);
  return file ? file.async('string') : null;
}

export interface DocxLayout {
  main: string;
  parts: TextPart[];
  /** The comments part if the document has one. */
  comments: string | null;
  /** The numbering and styles parts, if present: where list and heading numbers are defined. */
  numbering: string | null;
  styles: string | null;
}

export async function readLayout(zip: JSZip): Promise<DocxLayout> {
  const rootRels = await text(zip, '_rels/.rels');
  const officeDocument = rootRels ? relationships(rootRels).find((r) => r.type.endsWith('/officeDocument')) : undefined;
  const main = officeDocument ? officeDocument.target.replace(/^\//u, '') : 'word/document.xml';
  if (!zip.file(main)) throw new ValidationError('Not a Word document: the package has no main document part (word/document.xml).');
  const rels = relationships((await text(zip, relsName(main))) ?? '');
  const dir = posix.dirname(main);
  const target = (r: Relationship): string => (r.target.startsWith('/') ? r.target.slice(1) : posix.normalize(posix.join(dir, r.target)));
  const parts: TextPart[] = [{ name: main, label: 'body', commentable: true }];
  const kinds: [string, string, boolean][] = [
    ['/footnotes', 'footnotes', true],
    ['/endnotes', 'endnotes', true],
    ['/header', 'header', false],
    ['/footer', 'footer', false],
  ];
  for (const [suffix, label, commentable] of kinds) {
    const found = rels.filter((r) => r.type === `${REL}${suffix}` && zip.file(target(r)));
    found.forEach((r, i) => parts.push({ name: target(r), label: found.length > 1 ? `${label} ${i + 1}` : label, commentable }));
  }
  const commentsRel = rels.find((r) => r.type === COMMENTS_TYPE);
  const comments = commentsRel && zip.file(target(commentsRel)) ? target(commentsRel) : null;
  const part = (suffix: string): string | null => {
    const rel = rels.find((r) => r.type === `${REL}${suffix}`);
    return rel && zip.file(target(rel)) ? target(rel) : null;
  };
  return { main, parts, comments, numbering: part('/numbering'), styles: part('/styles') };
}

function escapeXml(value: string): string {
  return value.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;').replace(/"/gu, '&quot;');
}

export interface NewComment {
  id: number;
  author: string;
  initials: string;
  date: string;
  text: string;
}

function commentXml(c: NewComment): string {
  const paragraphs = c.text.split(/\r?\n/u).map(
    (line, i) =>
      `<w:p>${i === 0 ? '<w:r><w:annotationRef/></w:r>' : ''}<w:r><w:t xml:space="preserve">${escapeXml(line)}</w:t></w:r></w:p>`,
  );
  return `<w:comment w:id="${c.id}" w:author="${escapeXml(c.author)}" w:date="${c.date}" w:initials="${escapeXml(c.initials)}">${paragraphs.join('')}</w:comment>`;
}

/** Appends the comments after the existing ones, creating the part (and its type and relationship) if missing. */
export async function addComments(zip: JSZip, layout: DocxLayout, comments: NewComment[]): Promise<void> {
  if (comments.length === 0) return;
  const body = comments.map(commentXml).join('');
  if (layout.comments) {
    const xml = (await text(zip, layout.comments)) ?? '';
    const close = xml.lastIndexOf('</w:comments>');
    const selfClosed = /<w:comments\b[^>]*\/>/u.exec(xml);
    let next: string;
    if (close >= 0) next = xml.slice(0, close) + body + xml.slice(close);
    else if (selfClosed) next = xml.replace(selfClosed[0], `${selfClosed[0].slice(0, -2)}>${body}</w:comments>`);
    else throw new ValidationError(`The document's comments part ${layout.comments} is malformed.`);
    zip.file(layout.comments, next);
    return;
  }
  const dir = posix.dirname(layout.main);
  let name = posix.join(dir, 'comments.xml');
  for (let n = 2; zip.file(name); n++) name = posix.join(dir, `comments${n}.xml`);
  zip.file(name, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:comments xmlns:w="${W_NS}">${body}</w:comments>`);

  const typesName = '[Content_Types].xml';
  const types = (await text(zip, typesName)) ?? '';
  const override = `<Override PartName="/${name}" ContentType="${COMMENTS_CONTENT_TYPE}"/>`;
  zip.file(typesName, types.replace('</Types>', `${override}</Types>`));

  const relsPath = relsName(layout.main);
  const rels = (await text(zip, relsPath)) ?? `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>`;
  const used = new Set(relationships(rels).map((r) => r.id));
  let n = used.size + 1;
  while (used.has(`rId${n}`)) n++;
  const rel = `<Relationship Id="rId${n}" Type="${COMMENTS_TYPE}" Target="${posix.relative(dir, name)}"/>`;
  zip.file(relsPath, rels.replace('</Relationships>', `${rel}</Relationships>`));
  layout.comments = name;
}
