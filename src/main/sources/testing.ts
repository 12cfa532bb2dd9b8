// Test fixtures for extraction, generated on the fly so no binaries are committed: hand-written
// PDFs (Latin text only: CJK needs an embedded CID font, which is what LibreOffice is for), Office
// files from the same libraries Folio renders with, and LibreOffice-made PDFs where it is installed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import JSZip from 'jszip';
import { Readable } from 'node:stream';
import PptxGenJS from 'pptxgenjs';

/** Whether a command is on PATH: tests that need it skip with a message naming it otherwise. */
export function which(tool: string): boolean {
  try {
    execFileSync('which', [tool], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const hasSoffice = which('soffice');
export const hasPdftotext = which('pdftotext');

function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/gu, (c) => `\\${c}`)})`;
}

/** A page given as its raw content stream (Helvetica is `/F1`). */
export interface RawPdfPage {
  content: string;
}

/**
 * A valid PDF with one page per entry: each string array is that page's lines in Helvetica; null
 * is a page with an empty content stream (what a scan without a text layer looks like to pdfjs).
 */
export function minimalPdf(
  pages: readonly (readonly string[] | RawPdfPage | null)[],
  info: { title?: string; author?: string; pageHeight?: number; secondFont?: boolean; type3Font?: boolean } = {},
): Uint8Array {
  // pdfjs drops text outside the page, so long pages need a tall page.
  const height = info.pageHeight ?? 792;
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  const pageCount = pages.length;
  // 1 catalog, 2 pages, 3 font, 4 info, then a page and its contents for each page.
  const pageIds = pages.map((_, i) => 5 + i * 2);
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageCount} >>`);
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const infoEntries = [info.title ? `/Title ${pdfString(info.title)}` : '', info.author ? `/Author ${pdfString(info.author)}` : ''].join(' ');
  add(`<< ${infoEntries} >>`);
  // More faces go after the pages, so the other objects keep their numbers: Times-Roman as `/F2`;
  // as `/F3` a Type 3 font whose one glyph, `a`, is a square drawn in a 100-unit glyph space.
  const extra: string[] = [];
  const fonts: string[] = [];
  const firstExtra = 5 + pageCount * 2;
  if (info.secondFont) {
    fonts.push(`/F2 ${firstExtra + extra.length} 0 R`);
    extra.push('<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>');
  }
  if (info.type3Font) {
    const fontId = firstExtra + extra.length;
    fonts.push(`/F3 ${fontId} 0 R`);
    extra.push(
      `<< /Type /Font /Subtype /Type3 /FontBBox [0 0 75 75] /FontMatrix [0.01 0 0 0.01 0 0] /CharProcs << /square ${fontId + 1} 0 R >> /Encoding << /Type /Encoding /Differences [97 /square] >> /FirstChar 97 /LastChar 97 /Widths [75] >>`,
    );
    const square = '75 0 0 0 75 75 d1 0 0 75 75 re f';
    extra.push(`<< /Length ${square.length} >>\nstream\n${square}\nendstream`);
  }
  const moreFonts = fonts.map((font) => ` ${font}`).join('');
  for (const [i, lines] of pages.entries()) {
    const contentId = (pageIds[i] ?? 0) + 1;
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 ${height}] /Resources << /Font << /F1 3 0 R${moreFonts} >> >> /Contents ${contentId} 0 R >>`);
    const ops = lines === null ? '' : 'content' in lines ? lines.content : `BT /F1 12 Tf 16 TL 72 ${height - 72} Td ${lines.map((l) => `${pdfString(l)} Tj T*`).join(' ')} ET`;
    add(`<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`);
  }
  for (const body of extra) add(body);
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

/** Converts a text file to PDF with LibreOffice (form feeds become page breaks). */
export function sofficePdf(dir: string, name: string, text: string, filterOptions?: string): string {
  const txt = path.join(dir, `${name}.txt`);
  fs.writeFileSync(txt, text);
  // A private profile: a shared one makes a second soffice hand its job to the first and exit.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-lo-'));
  const outdir = fs.mkdtempSync(path.join(dir, 'lo-out-'));
  try {
    execFileSync(
      'soffice',
      [`-env:UserInstallation=file://${profile}`, '--headless', '--convert-to', filterOptions ? `pdf:writer_pdf_Export:${filterOptions}` : 'pdf', '--outdir', outdir, txt],
      { stdio: 'ignore', timeout: 120_000 },
    );
    const pdf = path.join(dir, `${name}.pdf`);
    fs.renameSync(path.join(outdir, `${name}.pdf`), pdf);
    return pdf;
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
    fs.rmSync(outdir, { recursive: true, force: true });
    fs.rmSync(txt, { force: true });
  }
}

export const ENCRYPT_FILTER = JSON.stringify({
  EncryptFile: { type: 'boolean', value: 'true' },
  DocumentOpenPassword: { type: 'string', value: 'secret' },
});

export async function docxBytes(): Promise<Uint8Array> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Project Proposal', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('研究背景：本项目研究文档提取。'),
          new Paragraph('Budget is 42 thousand.'),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

export async function pptxBytes(): Promise<Uint8Array> {
  const pptx = new PptxGenJS();
  const first = pptx.addSlide();
  first.addText('Quarterly Review', { x: 0.5, y: 0.5, w: 8, h: 1 });
  first.addText('季度回顾 & results', { x: 0.5, y: 2, w: 8, h: 1 });
  first.addNotes('Remember to thank the team.');
  const second = pptx.addSlide();
  second.addText('Next steps', { x: 0.5, y: 0.5, w: 8, h: 1 });
  return (await pptx.write({ outputType: 'nodebuffer' })) as Uint8Array;
}

/** A minimal two-sheet workbook: shared strings, an inline string, numbers and a gap column. */
export async function xlsxBytes(): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  );
  zip.file(
    'xl/workbook.xml',
    '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
      '<sheets><sheet name="Budget" sheetId="1" r:id="rId1"/><sheet name="预算 &amp; Notes" sheetId="2" r:id="rId2"/></sheets></workbook>',
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
      '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="/xl/worksheets/sheet2.xml"/></Relationships>',
  );
  zip.file(
    'xl/sharedStrings.xml',
    '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="4" uniqueCount="4">' +
      '<si><t>Item</t></si><si><t>Cost</t></si><si><r><t>Lab </t></r><r><t>equipment</t></r></si><si><t>差旅 | travel</t></si></sst>',
  );
  zip.file(
    'xl/worksheets/sheet1.xml',
    '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>' +
      '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>1200.5</v></c></row>' +
      '<row r="3"><c r="A3" t="s"><v>3</v></c><c r="C3" t="inlineStr"><is><t>est.</t></is></c></row>' +
      '</sheetData></worksheet>',
  );
  zip.file(
    'xl/worksheets/sheet2.xml',
    '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
      '<row r="1"><c r="A1" t="inlineStr"><is><t>Approved</t></is></c><c r="B1" t="b"><v>1</v></c></row></sheetData></worksheet>',
  );
  return zip.generateAsync({ type: 'uint8array' });
}

/** A PNG header is enough for sniffing; the image is never decoded. */
export const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

/** "中文 test" in GBK: 中 = D6 D0, 文 = CE C4. */
export const GBK_BYTES = new Uint8Array([0xd6, 0xd0, 0xce, 0xc4, 0x20, 0x74, 0x65, 0x73, 0x74, 0x0a]);

/**
 * A .docx zip bomb: a real document whose word/document.xml is `unpackedMb` of one repeated
 * paragraph, which deflate shrinks about a thousand times (a 408 KB file of this kind unpacks to
 * hundreds of MB). The XML is streamed into the archive, never held whole.
 */
export async function docxBombBytes(unpackedMb: number): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(await docxBytes());
  const paragraph = `<w:p><w:r><w:t>${'a'.repeat(1000)}</w:t></w:r></w:p>`;
  const repeats = Math.ceil((unpackedMb * 1024 * 1024) / paragraph.length);
  const block = paragraph.repeat(1000);
  let sent = 0;
  const body = new Readable({
    read() {
      if (sent === 0) this.push('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>');
      if (sent >= repeats) {
        this.push('</w:body></w:document>');
        this.push(null);
        return;
      }
      this.push(block);
      sent += 1000;
    },
  });
  zip.file('word/document.xml', body);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

/** The same archive with entry `name`'s uncompressed size in the central directory rewritten to `size`: a directory that lies. */
export function withLyingDirectory(bytes: Uint8Array, name: string, size: number): Uint8Array {
  const out = new Uint8Array(bytes);
  const view = new DataView(out.buffer);
  const wanted = Buffer.from(name);
  for (let i = 0; i + 46 <= out.length; i += 1) {
    if (view.getUint32(i, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(i + 28, true);
    if (Buffer.from(out.subarray(i + 46, i + 46 + nameLength)).equals(wanted)) view.setUint32(i + 24, size, true);
  }
  return out;
}

export interface DebianPdf {
  /** Short name for test titles and bench rows. */
  name: string;
  path: string;
  /** The Debian package that installs it (tests and benches skip a file that is absent). */
  debianPackage: string;
  /** Why it is here: what in it stresses extraction. */
  about: string;
  /** A page and words pdftotext finds on it. */
  page: number;
  words: readonly string[];
}

/**
 * Real PDFs from Debian packages, read by sources/debian-pdfs.test.ts and bench/pdf-extract: made
 * by other tools than LibreOffice (XeTeX, pdfTeX), with the fonts those embed. The Chinese book's
 * fonts are CID-keyed CFF without ToUnicode maps, so its text goes through the Adobe-GB1 CMaps.
 * Only lshort-zh-cn.pdf may need installing: `apt-get install texlive-lang-chinese`, or just that
 * file from the package (`apt-get download` + `dpkg-deb --fsys-tarfile | tar -x`).
 */
export const DEBIAN_PDFS: readonly DebianPdf[] = [
  {
    name: 'lshort-zh-cn',
    path: '/usr/share/doc/texlive-doc/latex/lshort-chinese/lshort-zh-cn.pdf',
    debianPackage: 'texlive-lang-chinese',
    about: '139-page Chinese book, XeTeX, CID fonts without ToUnicode',
    page: 20,
    words: ['值得注意的是', '纯粹是把文件里的内容插入'],
  },
  {
    name: 'libtasn1',
    path: '/usr/share/doc/libtasn1-doc/libtasn1.pdf',
    debianPackage: 'libtasn1-doc',
    about: '36-page English manual, pdfTeX, Type 1 fonts',
    page: 5,
    words: ['ASN.1 syntax', 'The parser is case sensitive'],
  },
  {
    name: 'shared-mime-info-spec',
    path: '/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf',
    debianPackage: 'shared-mime-info',
    about: '17-page English specification, DocBook via pdfTeX, Type 1 fonts with custom encodings',
    page: 3,
    words: ['Shared MIME-info Database', 'update-mime-database'],
  },
];

/** The Debian PDFs installed on this machine. */
export function installedDebianPdfs(): DebianPdf[] {
  return DEBIAN_PDFS.filter((pdf) => fs.existsSync(pdf.path));
}
