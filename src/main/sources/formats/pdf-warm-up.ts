// A small PDF the spare worker extracts while the app is idle, so the first real file does not
// pay for pdfjs's first document: the parser, the text path and its JIT warm-up, plus what the
// thread keeps for later documents (pdfjs-data.ts, and in pdfjs-load.ts the built-in CMaps and
// CID → Unicode tables). Page 1 uses two standard Type 1 faces (pdfjs parses their Type 1 data, as
// for TeX's embedded fonts); page 2 a composite font with Identity-H and the Adobe-GB1 collection
// (the CMap walk of CID-keyed Chinese fonts without ToUnicode). The typeset pages after them are
// set as TeX and word processors set text: deflated content streams, kerned TJ arrays, a font
// change every run or two, Chinese runs between English ones and a font with a ToUnicode map, so
// the functions a real document spends its time in have run often enough to be compiled and
// optimised before it comes. Built in code, a few kilobytes.
import { deflateSync } from 'node:zlib';
import { extractPdf } from './pdf';

/** Enough typeset text for pdfjs's text loop to be optimised, little enough to take ~0.2 s of an idle thread. */
export const TYPESET_PAGES = 8;
const LINES_PER_PAGE = 40;

const WORDS = ['extraction', 'keeps', 'text', 'page', 'by', 'page', 'so', 'the', 'agent', 'can', 'cite', 'every', 'line', 'of', 'a', 'document', 'with', 'its', 'figures', 'and', 'tables'];
/** CIDs of Han characters in Adobe-GB1, as hex. */
const HAN = ['0FA0', '11F2', '138F', '1A4B', '0D6B', '1B2C', '0E3A', '12C4'];

/** PDF string escaping for the few characters a literal needs escaped. */
function literal(text: string): string {
  return `(${text.replace(/[\\()]/gu, (c) => `\\${c}`)})`;
}

/** One typeset line: a kerned TJ of English words, a font change, and a run of Han characters or a ToUnicode face. */
function typesetLine(page: number, line: number): string {
  const words = Array.from({ length: 7 }, (_, i) => WORDS[(page * 7 + line * 3 + i) % WORDS.length]);
  const kerned = words.map((word, i) => (i % 3 === 1 && word.length > 2 ? `${literal(word.slice(0, 1))} ${20 + i * 5} ${literal(word.slice(1))}` : literal(word))).join(' -333 ');
  const size = line % 9 === 0 ? 12 : 10;
  const second = line % 2 === 0 ? `/F3 ${size} Tf <${HAN.slice(line % 4, (line % 4) + 4).join('')}> Tj` : `/F4 ${size} Tf ${literal(`${page}.${line} `)} Tj`;
  return `/F${line % 5 === 0 ? 2 : 1} ${size} Tf [${kerned}] TJ ${second} 0 -12 Td`;
}

function typesetContent(page: number): string {
  const lines = Array.from({ length: LINES_PER_PAGE }, (_, line) => typesetLine(page, line));
  return `BT 72 740 Td ${lines.join('\n')} ET`;
}

/** A ToUnicode map for a one-byte font: every code to the same code point, as pdfTeX writes them for plain faces. */
const TO_UNICODE = [
  '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
  '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
  '/CMapName /Adobe-Identity-UCS def /CMapType 2 def',
  '1 begincodespacerange <00> <FF> endcodespacerange',
  '2 beginbfrange <20> <7E> <0020> <80> <FF> <00C0> endbfrange',
  'endcmap CMapName currentdict /CMap defineresource pop end end',
].join('\n');

interface PdfObject {
  dict: string;
  stream?: Buffer;
}

function streamObject(text: string, deflate: boolean): PdfObject {
  const stream = deflate ? deflateSync(text) : Buffer.from(text, 'latin1');
  return { dict: `<< /Length ${stream.length}${deflate ? ' /Filter /FlateDecode' : ''} >>`, stream };
}

function buildWarmUpPdf(typesetPages: number): Uint8Array {
  const FONTS = '/Font << /F1 7 0 R /F2 8 0 R /F3 9 0 R /F4 12 0 R >>';
  const firstTypeset = 14;
  const pageIds = [3, 5, ...Array.from({ length: typesetPages }, (_, i) => firstTypeset + i * 2)];
  const objects: PdfObject[] = [
    { dict: '<< /Type /Catalog /Pages 2 0 R >>' },
    { dict: `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>` },
    { dict: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 7 0 R /F2 8 0 R >> >> /Contents 4 0 R >>' },
    streamObject('BT /F1 12 Tf 14 TL 72 720 Td (Warm-up: text, spacing and lines.) Tj T* (Second line, 1.5 \\(x\\).) Tj ET BT /F2 14 Tf 72 680 Td (Heading) Tj ET', false),
    { dict: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F3 9 0 R >> >> /Contents 6 0 R >>' },
    // A few CIDs of Han characters in Adobe-GB1.
    streamObject('BT /F3 12 Tf 14 TL 72 720 Td <0FA011F2138F> Tj T* <1A4B0D6B> Tj ET', false),
    { dict: '<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>' },
    { dict: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>' },
    { dict: '<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /Identity-H /DescendantFonts [10 0 R] >>' },
    { dict: '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 5 >> /FontDescriptor 11 0 R /DW 1000 >>' },
    { dict: '<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 80 >>' },
    { dict: '<< /Type /Font /Subtype /Type1 /BaseFont /Courier /FirstChar 32 /LastChar 126 /Widths [' + Array(95).fill(600).join(' ') + '] /ToUnicode 13 0 R >>' },
    streamObject(TO_UNICODE, true),
  ];
  for (let page = 0; page < typesetPages; page += 1) {
    const content = firstTypeset + page * 2 + 1;
    objects.push({ dict: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << ${FONTS} >> /Contents ${content} 0 R >>` });
    objects.push(streamObject(typesetContent(page), true));
  }
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = parts[0].length;
  const add = (part: Buffer) => {
    parts.push(part);
    length += part.length;
  };
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(length);
    add(Buffer.from(`${i + 1} 0 obj\n${object.dict}\n`, 'latin1'));
    if (object.stream) add(Buffer.concat([Buffer.from('stream\n', 'latin1'), object.stream, Buffer.from('\nendstream\n', 'latin1')]));
    add(Buffer.from('endobj\n', 'latin1'));
  });
  const xref = length;
  add(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`, 'latin1'));
  add(Buffer.from(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}

/** Extracts the warm-up PDF (the first two pages and this many typeset ones); its text is what pdfjs read, for tests. */
export async function warmUpPdfText(typesetPages = TYPESET_PAGES): Promise<string> {
  const result = await extractPdf(buildWarmUpPdf(typesetPages), () => undefined);
  return result.markdown;
}
