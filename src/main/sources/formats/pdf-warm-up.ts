// A two-page PDF the spare worker extracts while the app is idle, so the first real file does not
// pay for pdfjs's first document: the parser, the text path and its JIT warm-up, plus what the
// thread keeps for later documents (pdfjs-data.ts, and in pdfjs-load.ts the built-in CMaps and
// CID → Unicode tables). Page 1 uses two standard Type 1 faces (pdfjs parses their Type 1 data, as
// for TeX's embedded fonts); page 2 a composite font with Identity-H and the Adobe-GB1 collection
// (the CMap walk of CID-keyed Chinese fonts without ToUnicode). Built in code, a few hundred bytes.
import { extractPdf } from './pdf';

function buildWarmUpPdf(): Uint8Array {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 7 0 R /F2 8 0 R >> >> /Contents 4 0 R >>',
    null, // page 1's content
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F3 9 0 R >> >> /Contents 6 0 R >>',
    null, // page 2's content
    '<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /Identity-H /DescendantFonts [10 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 5 >> /FontDescriptor 11 0 R /DW 1000 >>',
    '<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 80 >>',
  ];
  const contents = [
    'BT /F1 12 Tf 14 TL 72 720 Td (Warm-up: text, spacing and lines.) Tj T* (Second line, 1.5 \\(x\\).) Tj ET BT /F2 14 Tf 72 680 Td (Heading) Tj ET',
    // A few CIDs of Han characters in Adobe-GB1.
    'BT /F3 12 Tf 14 TL 72 720 Td <0FA011F2138F> Tj T* <1A4B0D6B> Tj ET',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  let content = 0;
  objects.forEach((object, i) => {
    offsets.push(body.length);
    const text = object ?? `<< /Length ${contents[content].length} >>\nstream\n${contents[content++]}\nendstream`;
    body += `${i + 1} 0 obj\n${text}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

/** Extracts the warm-up PDF; its text is what pdfjs read, for tests. */
export async function warmUpPdfText(): Promise<string> {
  const result = await extractPdf(buildWarmUpPdf(), () => undefined);
  return result.markdown;
}
