// A small PDF the spare worker extracts while the app is idle, so the first real file does not
// pay for pdfjs's first document: the parser, the text path and its JIT warm-up, plus what the
// thread keeps for later documents (pdfjs-data.ts, and in pdfjs-load.ts the built-in CMaps and
// CID → Unicode tables). Page 1 uses two standard Type 1 faces (pdfjs parses their Type 1 data, as
// for TeX's embedded fonts); page 2 a composite font with Identity-H and the Adobe-GB1 collection
// (the CMap walk of CID-keyed Chinese fonts without ToUnicode).
//
// Reading two short pages compiles the text path but leaves it in V8's interpreter: a profile of
// the first real file after that showed the same functions as a warm one (building text items,
// glyph mapping, the lexer, the content-stream loop), each two to three times slower, because they
// had not yet run often enough to be optimised. So the later pages repeat what typesetters write
// (deflated content streams, TJ arrays of two-byte hex codes and kerned strings, a font change
// every run or two, line drawing between them) until those functions are optimised. Built in
// code: about 10 kB, read in about a tenth of a second of idle time.
import zlib from 'node:zlib';
import { extractPdf } from './pdf';

/** Pages of typeset-like text after the two plain ones; enough for V8 to optimise the text path. */
const BUSY_PAGES = 24;
const LINES_PER_PAGE = 40;

const WORDS = ['Extraction', 'keeps', 'text', 'page', 'by', 'so', 'the', 'agent', 'can', 'cite', 'it', '(1.5)', 'fonts,', 'lines'];

/** Deterministic pseudo-random numbers, so the warm-up PDF is the same bytes every time. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state;
  };
}

function hexCids(next: () => number, count: number): string {
  let hex = '';
  // Han characters of Adobe-GB1 lie between CIDs 814 and 7716.
  for (let i = 0; i < count; i += 1) hex += (814 + (next() % 6900)).toString(16).padStart(4, '0');
  return `<${hex}>`;
}

/** One page's content in the style of TeX and office output: runs of Latin and Chinese text in turn. */
function busyContent(page: number): string {
  const next = sequence(page + 1);
  const ops: string[] = ['q 1 0 0 1 72 770 cm BT'];
  for (let line = 0; line < LINES_PER_PAGE; line += 1) {
    const word = (k: number) => WORDS[(line + k + page) % WORDS.length];
    ops.push(`/F1 10 Tf 0 -14 Td[(${word(0)})-333(${word(1)})27(${word(2)})-333(${word(3)})]TJ`);
    ops.push(`/F3 10 Tf ${40 + (line % 7)} 0 Td[${hexCids(next, 6)}-250${hexCids(next, 3)}]TJ`);
    if (line % 3 === 0) ops.push(`/F2 10 Tf 60 0 Td(${word(4)})Tj -${100 + (line % 7)} 0 Td`);
    else ops.push(`-${40 + (line % 7)} 0 Td`);
    if (line % 10 === 9) ops.push('ET q .4 w 0 -4 m 400 -4 l S Q BT');
  }
  ops.push('ET Q');
  return ops.join('\n');
}

function buildWarmUpPdf(): Uint8Array {
  const fonts = '/Font << /F1 7 0 R /F2 8 0 R /F3 9 0 R >>';
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '', // the page tree, once the pages are known
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << ${fonts} >> /Contents 4 0 R >>`,
    '', // page 1's content
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << ${fonts} >> /Contents 6 0 R >>`,
    '', // page 2's content
    '<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /Identity-H /DescendantFonts [10 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 5 >> /FontDescriptor 11 0 R /DW 1000 >>',
    '<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 80 >>',
  ];
  const stream = (content: string, deflate: boolean) => {
    const data = deflate ? zlib.deflateSync(Buffer.from(content, 'latin1')).toString('latin1') : content;
    return `<< /Length ${data.length}${deflate ? ' /Filter /FlateDecode' : ''} >>\nstream\n${data}\nendstream`;
  };
  objects[3] = stream('BT /F1 12 Tf 14 TL 72 720 Td (Warm-up: text, spacing and lines.) Tj T* (Second line, 1.5 \\(x\\).) Tj ET BT /F2 14 Tf 72 680 Td (Heading) Tj ET', false);
  // A few CIDs of Han characters in Adobe-GB1.
  objects[5] = stream('BT /F3 12 Tf 14 TL 72 720 Td <0FA011F2138F> Tj T* <1A4B0D6B> Tj ET', false);
  const kids = [3, 5];
  for (let page = 0; page < BUSY_PAGES; page += 1) {
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << ${fonts} >> /Contents ${objects.length + 2} 0 R >>`);
    kids.push(objects.length);
    objects.push(stream(busyContent(page), true));
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;

  // Latin-1 throughout, so string lengths are byte offsets and deflated bytes pass unchanged.
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(body, 'latin1'));
}

/** Extracts the warm-up PDF; its text is what pdfjs read, for tests. */
export async function warmUpPdfText(): Promise<string> {
  const result = await extractPdf(buildWarmUpPdf(), () => undefined);
  return result.markdown;
}
