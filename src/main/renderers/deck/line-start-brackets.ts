// A full-width opening bracket at a line start set half width, as clreq and JIS X 4051 set it: its
// glyph's blank left half moves out past the line's start, so the bracket's ink lines up with the
// first characters of the other lines instead of sitting half an em in ("（P95 延迟）…").
//
// Neither LibreOffice nor PowerPoint does this, and DrawingML has no way to ask for it; negative
// character spacing cannot move a glyph left of where its line starts in LibreOffice, and a face's
// `halt` feature ("Face:halt") is drawn but not measured by LibreOffice's slide text engine, leaving
// the half em after the bracket instead. What both honour is a paragraph's first-line indent, so
// a line that starts with a bracket is made the first line of a paragraph of its own (same line
// spacing, no space between, no bullet) whose first line starts half an em further left. Where that
// would be left of the text box, the box is widened to the left and every paragraph's margin grows
// by as much, so nothing else moves. A bulleted first line keeps its bullet where it was and has
// the room between the bullet and the text shortened, when the bullet still fits in it.
import { LINE_START_BRACKET_TRIM_EM, OPENING_BRACKETS, startsWithOpeningBracket } from '../../../shared/specs/deck';

const EMU_PER_PT = 12_700;
/** The default bullet "•" is about 0.35 em wide in Arial and Liberation Sans: the room it needs after a half em is taken. */
const BULLET_ROOM_EM = 0.36;

const SHAPE = /<p:sp>[\s\S]*?<\/p:sp>/gu;
const TEXT_BODY = /(<p:txBody>)([\s\S]*?)(<\/p:txBody>)/u;
const PARAGRAPH = /<a:p>([\s\S]*?)<\/a:p>/gu;
const PARAGRAPH_PROPS = /^(?:<a:pPr\b[^>]*\/>|<a:pPr\b[^>]*>[\s\S]*?<\/a:pPr>)/u;
/** What a paragraph holds after its properties: runs, line breaks, fields, the end-of-paragraph properties. */
const PARAGRAPH_PART = /<a:r>[\s\S]*?<\/a:r>|<a:br\b[^>]*\/>|<a:br\b[^>]*>[\s\S]*?<\/a:br>|<a:fld\b[\s\S]*?<\/a:fld>|<a:endParaRPr\b[^>]*\/>|<a:endParaRPr\b[^>]*>[\s\S]*?<\/a:endParaRPr>/gu;
const BULLET = /<a:buSzPct\b[^>]*\/>|<a:buSzPts\b[^>]*\/>|<a:buFont\b[^>]*\/>|<a:buChar\b[^>]*\/>|<a:buAutoNum\b[^>]*\/>|<a:buNone\/>/gu;
/** What may follow the bullet in a paragraph's properties (the schema's order). */
const AFTER_BULLET = /<a:tabLst\b|<a:defRPr\b|<a:extLst\b|<\/a:pPr>/u;

interface Paragraph {
  props: string;
  parts: string[];
}

interface Line {
  parts: string[];
  /** Half the size of the bracket that starts the line, EMU; 0 when the line does not start with one. */
  half: number;
}

function attribute(tag: string, name: string): number | undefined {
  const m = new RegExp(`\\s${name}="(-?\\d+)"`, 'u').exec(tag);
  return m ? Number(m[1]) : undefined;
}

function withAttributes(props: string, attrs: Record<string, number>): string {
  let out = props;
  for (const [name, value] of Object.entries(attrs)) {
    out = new RegExp(`\\s${name}="`, 'u').test(out) ? out.replace(new RegExp(`\\s${name}="-?\\d+"`, 'u'), ` ${name}="${value}"`) : out.replace(/^<a:pPr\b/u, `<a:pPr ${name}="${value}"`);
  }
  return out;
}

/** The first character a run of the line draws, and that run's size (hundredths of a point). */
function lineStart(parts: readonly string[]): { text: string; size: number } | null {
  for (const part of parts) {
    if (!part.startsWith('<a:r>')) return null;
    const text = /<a:t>([^<]*)<\/a:t>/u.exec(part)?.[1] ?? '';
    if (text === '') continue;
    return { text, size: attribute(/<a:rPr\b[^>]*>/u.exec(part)?.[0] ?? '', 'sz') ?? 0 };
  }
  return null;
}

function linesOf(parts: readonly string[]): Line[] {
  const lines: Line[] = [{ parts: [], half: 0 }];
  for (const part of parts) {
    if (part.startsWith('<a:br')) lines.push({ parts: [], half: 0 });
    else if (!part.startsWith('<a:endParaRPr')) lines[lines.length - 1]?.parts.push(part);
  }
  for (const line of lines) {
    const start = lineStart(line.parts);
    if (start && startsWithOpeningBracket(start.text)) line.half = Math.round((start.size / 100) * EMU_PER_PT * LINE_START_BRACKET_TRIM_EM);
  }
  return lines;
}

function readParagraph(inner: string): Paragraph | null {
  const props = PARAGRAPH_PROPS.exec(inner)?.[0];
  if (props === undefined) return null;
  const rest = inner.slice(props.length);
  const parts = rest.match(PARAGRAPH_PART) ?? [];
  return parts.join('') === rest ? { props, parts } : null;
}

/** A paragraph's pieces, each written as a paragraph: the pieces' first lines and their margins. */
interface Piece {
  lines: Line[];
  marL: number;
  indent: number;
  bullet: boolean;
}

/**
 * The paragraph cut before each line that starts with a bracket (and after such a first line), each
 * piece's first-line indent taking the bracket's blank half; null when no line starts with one or
 * the paragraph is not set flush left. `shift`: how far the box will widen to the left.
 */
function piecesOf(p: Paragraph): Piece[] | null {
  const algn = /\salgn="(\w+)"/u.exec(p.props)?.[1] ?? 'l';
  if (algn !== 'l' && algn !== 'just') return null;
  const lines = linesOf(p.parts);
  if (lines.every((l) => l.half === 0)) return null;
  const marL = attribute(p.props, 'marL');
  const indent = attribute(p.props, 'indent');
  if (marL === undefined || indent === undefined) return null;
  const bulleted = /<a:bu(?:Char|AutoNum)\b/u.test(p.props);
  const pieces: Piece[] = [];
  lines.forEach((line, k) => {
    const last = pieces[pieces.length - 1];
    const cut = k === 0 || line.half > 0 || (k === 1 && (lines[0]?.half ?? 0) > 0);
    if (!cut && last) {
      last.lines.push(line);
      return;
    }
    if (k > 0) pieces.push({ lines: [line], marL, indent: -line.half, bullet: false });
    else if (!bulleted) pieces.push({ lines: [line], marL, indent: indent - line.half, bullet: false });
    else {
      // The bullet stays at marL + indent; the text after it starts half an em sooner, if the bullet still fits.
      const fits = line.half > 0 && /<a:buChar char="&#x2022;"\/>/u.test(p.props) && -indent - line.half >= BULLET_ROOM_EM * 2 * line.half && marL - line.half >= 0;
      const trim = fits ? line.half : 0;
      pieces.push({ lines: [line], marL: marL - trim, indent: indent + trim, bullet: true });
    }
  });
  return pieces;
}

/** How far left of the box a piece's lines would start: the box widens by the most of these. */
function overhang(piece: Piece): number {
  return Math.max(0, -(piece.marL + piece.indent), -piece.marL);
}

function withoutBullet(props: string): string {
  const open = props.endsWith('/>') ? `${props.slice(0, -2)}></a:pPr>` : props;
  const bare = open.replace(BULLET, '');
  const at = AFTER_BULLET.exec(bare)?.index ?? bare.length;
  return `${bare.slice(0, at)}<a:buNone/>${bare.slice(at)}`;
}

function writePieces(p: Paragraph, pieces: readonly Piece[], shift: number): string {
  const end = p.parts.find((part) => part.startsWith('<a:endParaRPr')) ?? '';
  return pieces
    .map((piece, i) => {
      let props = withAttributes(p.props, { marL: piece.marL + shift, indent: piece.indent });
      if (!piece.bullet) props = withoutBullet(props);
      if (i > 0) props = props.replace(/<a:spcBef>[\s\S]*?<\/a:spcBef>/u, '');
      if (i < pieces.length - 1) props = props.replace(/<a:spcAft>[\s\S]*?<\/a:spcAft>/u, '');
      const lines = piece.lines.map((line) => line.parts.join('')).join('<a:br/>');
      return `<a:p>${props}${lines}${i === pieces.length - 1 ? end : ''}</a:p>`;
    })
    .join('');
}

function trimShape(shape: string): string {
  const body = TEXT_BODY.exec(shape);
  // Vertical text has no line start on the left.
  if (!body || /<a:bodyPr\b[^>]*\svert="(?!horz")/u.test(body[2] ?? '')) return shape;
  const inner = body[2] ?? '';
  const paragraphs = Array.from(inner.matchAll(PARAGRAPH), (m) => ({ whole: m[0], p: readParagraph(m[1] ?? '') }));
  const cut = paragraphs.map(({ p }) => (p ? piecesOf(p) : null));
  if (cut.every((c) => c === null)) return shape;
  const shift = Math.max(0, ...cut.flatMap((pieces) => (pieces ?? []).map(overhang)));
  const off = /<a:off x="(-?\d+)"/u.exec(shape);
  const ext = /<a:ext cx="(\d+)"/u.exec(shape);
  // Widening the box moves every paragraph's margin: each must say its own.
  if (shift > 0 && (!off || !ext || paragraphs.some(({ p }) => !p || attribute(p.props, 'marL') === undefined))) return shape;
  let i = 0;
  const text = inner.replace(PARAGRAPH, (whole) => {
    const { p } = paragraphs[i] ?? {};
    const pieces = cut[i++];
    if (!p) return whole;
    if (pieces) return writePieces(p, pieces, shift);
    return shift > 0 ? `<a:p>${withAttributes(p.props, { marL: (attribute(p.props, 'marL') ?? 0) + shift })}${p.parts.join('')}</a:p>` : whole;
  });
  let out = shape.replace(TEXT_BODY, (_m, open: string, _t: string, close: string) => `${open}${text}${close}`);
  if (shift > 0 && off && ext) {
    out = out.replace(/<a:off x="(-?\d+)"/u, `<a:off x="${Number(off[1]) - shift}"`).replace(/<a:ext cx="(\d+)"/u, `<a:ext cx="${Number(ext[1]) + shift}"`);
  }
  return out;
}

/** The slide's text boxes with every line that starts with a full-width opening bracket set as the module comment says. */
export function trimLineStartBrackets(slideXml: string): string {
  if (!Array.from(OPENING_BRACKETS).some((bracket) => slideXml.includes(bracket))) return slideXml;
  return slideXml.replace(SHAPE, trimShape);
}
