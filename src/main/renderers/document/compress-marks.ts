// Sets chosen full-width marks half width in the built .docx (tight-lines.ts chooses them). Each mark becomes a run
// of its own whose East Asian face is named "<face>:halt": LibreOffice reads a "Font:feature" name as the face with
// that OpenType feature on, and `halt` (alternate half widths, in Noto CJK as in most CJK faces) draws the mark's own
// glyph in half its width, unlike character scaling (`w:w`), which squeezes the glyph, or condensed spacing
// (`w:spacing`), which LibreOffice 7.4 draws in part and not at all after a run's last character (both measured).
// Word knows no face of that name: the font table lists it with the face itself as its alternate name, which Word
// takes, so Word sets the mark in the face at full width, as it would without this.
import JSZip from 'jszip';
import { type MarkCompression, printedText } from './tight-lines';

const DOCUMENT = 'word/document.xml';
const FONT_TABLE = 'word/fontTable.xml';
const HALF_WIDTH_FEATURE = 'halt';

const PARAGRAPH = /<w:p\b[^>]*>[\s\S]*?<\/w:p>/gu;
/** A run docx writes for text: optional properties, then one text element. */
const SIMPLE_RUN = /<w:r>(<w:rPr>(?:(?!<\/w:rPr>)[\s\S])*<\/w:rPr>)?<w:t(?: xml:space="preserve")?>([^<]*)<\/w:t><\/w:r>/gu;
/** A character of XML text: an entity or one code point. */
const XML_CHAR = /&[a-zA-Z]+;|&#x?[0-9a-fA-F]+;|[\s\S]/gu;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" };

type Char = { run: number; index: number };
type Run = { start: number; end: number; props: string; chars: string[] };

const decoded = (xmlChar: string): string => ENTITIES[xmlChar] ?? xmlChar;

/** The paragraph's simple runs, and each printed character's place in them; null when it prints text of other runs. */
function readParagraph(xml: string): { runs: Run[]; printed: string; places: Char[] } | null {
  const runs: Run[] = [];
  for (const m of xml.matchAll(SIMPLE_RUN)) runs.push({ start: m.index, end: m.index + m[0].length, props: m[1] ?? '', chars: m[2]?.match(XML_CHAR) ?? [] });
  // Text outside simple runs (fields, symbols) would shift the places: such a paragraph is left alone.
  const allText = [...xml.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/gu)].map((m) => m[1] ?? '').join('');
  if (allText !== runs.map((r) => r.chars.join('')).join('')) return null;
  let printed = '';
  const places: Char[] = [];
  runs.forEach((run, r) =>
    run.chars.forEach((c, index) => {
      const text = printedText(decoded(c));
      if (text === '') return;
      printed += text;
      for (let k = 0; k < text.length; k += 1) places.push({ run: r, index });
    }),
  );
  return { runs, printed, places };
}

/** Run properties with the East Asian face named with the half-width feature. */
function halfWidthProps(props: string, defaultFace: string): { props: string; face: string } {
  const own = /<w:rFonts\b[^>]*\bw:eastAsia="([^"]*)"/u.exec(props)?.[1];
  const face = `${own ?? defaultFace}:${HALF_WIDTH_FEATURE}`;
  if (props === '') return { props: `<w:rPr><w:rFonts w:eastAsia="${face}"/></w:rPr>`, face };
  if (own !== undefined) return { props: props.replace(/(<w:rFonts\b[^>]*\bw:eastAsia=")[^"]*"/u, `$1${face}"`), face };
  if (/<w:rFonts\b/u.test(props)) return { props: props.replace(/<w:rFonts\b/u, `<w:rFonts w:eastAsia="${face}"`), face };
  // CT_RPr: rFonts comes right after rStyle.
  const after = /^<w:rPr>(?:<w:rStyle\b[^>]*\/>)?/u.exec(props)?.[0] ?? '<w:rPr>';
  return { props: `${after}<w:rFonts w:eastAsia="${face}"/>${props.slice(after.length)}`, face };
}

const textRun = (props: string, chars: readonly string[]): string => (chars.length === 0 ? '' : `<w:r>${props}<w:t xml:space="preserve">${chars.join('')}</w:t></w:r>`);

/** The paragraph with the marks at `indexes` (of `run`) each in a half-width run. */
function splitRun(run: Run, indexes: ReadonlySet<number>, defaultFace: string, faces: Set<string>): string {
  const out: string[] = [];
  let from = 0;
  for (const index of [...indexes].sort((a, b) => a - b)) {
    out.push(textRun(run.props, run.chars.slice(from, index)));
    const half = halfWidthProps(run.props, defaultFace);
    faces.add(half.face);
    out.push(textRun(half.props, run.chars.slice(index, index + 1)));
    from = index + 1;
  }
  out.push(textRun(run.props, run.chars.slice(from)));
  return out.join('');
}

/** Each compression's paragraph and the places of its marks, found when the text appears as often as the PDF showed. */
function placesToCompress(paragraphs: readonly (ReturnType<typeof readParagraph> | null)[], compressions: readonly MarkCompression[]): Map<number, Char[]> {
  const chosen = new Map<number, Char[]>();
  for (const compression of compressions) {
    const hits: { paragraph: number; at: number }[] = [];
    paragraphs.forEach((p, i) => {
      if (!p) return;
      for (let at = p.printed.indexOf(compression.text); at >= 0; at = p.printed.indexOf(compression.text, at + 1)) hits.push({ paragraph: i, at });
    });
    const hit = hits[compression.occurrence];
    const paragraph = hit ? paragraphs[hit.paragraph] : null;
    if (!hit || !paragraph || hits.length !== compression.of) continue;
    const places = compression.offsets.flatMap((offset) => paragraph.places[hit.at + offset] ?? []);
    chosen.set(hit.paragraph, [...(chosen.get(hit.paragraph) ?? []), ...places]);
  }
  return chosen;
}

/**
 * The .docx with the marks of `compressions` set half width, and the font table naming each feature face.
 * Compressions whose text is not found as often as the PDF showed it are skipped.
 */
export async function withCompressedMarks(bytes: Uint8Array, compressions: readonly MarkCompression[], defaultFace: string): Promise<Uint8Array> {
  if (compressions.length === 0) return bytes;
  const zip = await JSZip.loadAsync(bytes);
  const xml = await zip.file(DOCUMENT)?.async('string');
  if (xml === undefined) return bytes;
  const spans = [...xml.matchAll(PARAGRAPH)].map((m) => ({ start: m.index, end: m.index + m[0].length, xml: m[0] }));
  const paragraphs = spans.map((s) => readParagraph(s.xml));
  const chosen = placesToCompress(paragraphs, compressions);
  if (chosen.size === 0) return bytes;
  const faces = new Set<string>();
  let out = '';
  let at = 0;
  spans.forEach((span, i) => {
    const places = chosen.get(i);
    const paragraph = paragraphs[i];
    if (!places || !paragraph) return;
    let rewritten = '';
    let from = 0;
    paragraph.runs.forEach((run, r) => {
      const indexes = new Set(places.filter((p) => p.run === r).map((p) => p.index));
      if (indexes.size === 0) return;
      rewritten += span.xml.slice(from, run.start) + splitRun(run, indexes, defaultFace, faces);
      from = run.end;
    });
    out += xml.slice(at, span.start) + rewritten + span.xml.slice(from);
    at = span.end;
  });
  zip.file(DOCUMENT, out + xml.slice(at));
  const fonts = await zip.file(FONT_TABLE)?.async('string');
  if (fonts !== undefined) zip.file(FONT_TABLE, withFeatureFaces(fonts, faces));
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/** The font table with an entry for each feature face, its alternate name the face itself (what Word falls back to). */
export function withFeatureFaces(fontTable: string, faces: ReadonlySet<string>): string {
  const entries = [...faces]
    .filter((face) => !fontTable.includes(`w:name="${face}"`))
    .map((face) => `<w:font w:name="${face}"><w:altName w:val="${face.slice(0, face.lastIndexOf(':'))}"/><w:family w:val="auto"/><w:pitch w:val="variable"/></w:font>`)
    .join('');
  if (entries === '') return fontTable;
  if (/<w:fonts\b[^>]*\/>/u.test(fontTable)) return fontTable.replace(/<w:fonts\b([^>]*)\/>/u, `<w:fonts$1>${entries}</w:fonts>`);
  return fontTable.replace('</w:fonts>', `${entries}</w:fonts>`);
}
