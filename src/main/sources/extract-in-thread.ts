// The extraction itself, run inside the worker: decide what the bytes really are (names lie: a
// ".pdf" may be an HTML error page or a renamed .docx) and hand them to the right format.
import JSZip from 'jszip';
import { decodeText } from './formats/decode';
import { pageMarker } from './formats/markdown';
import { declaredKind, extensionOf, sniff } from './kinds';
import { type ExtractionResult, type ProgressFn, type SourceKind } from './types';

const DESCRIPTIONS: Record<SourceKind | 'zip', string> = {
  pdf: 'a PDF',
  docx: 'a Word document (.docx)',
  pptx: 'a PowerPoint deck (.pptx)',
  xlsx: 'an Excel workbook (.xlsx)',
  csv: 'a CSV table',
  tsv: 'a TSV table',
  text: 'a text file',
  image: 'an image',
  zip: 'a ZIP archive',
};

function failure(message: string): ExtractionResult {
  return { status: 'error', markdown: '', pages: null, message };
}

function officeKind(zip: JSZip): SourceKind | null {
  if (zip.file('word/document.xml')) return 'docx';
  if (zip.file('ppt/presentation.xml')) return 'pptx';
  if (zip.file('xl/workbook.xml')) return 'xlsx';
  return null;
}

export async function extractBytes(bytes: Uint8Array, name: string, onProgress: ProgressFn): Promise<ExtractionResult> {
  if (bytes.length === 0) return failure('empty file');
  const declared = declaredKind(name);
  const sniffed = sniff(bytes.subarray(0, 8192));
  let zip: JSZip | null = null;
  let actual: SourceKind;
  switch (sniffed) {
    case 'pdf':
      actual = 'pdf';
      break;
    case 'image':
      actual = 'image';
      break;
    case 'ole':
      return failure('a legacy Office file (.doc/.xls/.ppt) or a password-protected Office file: save it as .docx/.pptx/.xlsx without a password and add it again');
    case 'binary':
      return failure(`not ${DESCRIPTIONS[declared ?? 'text']}: the bytes are an unrecognised binary format`);
    case 'text':
      actual = declared === 'csv' || declared === 'tsv' || declared === 'text' ? declared : 'text';
      break;
    case 'zip': {
      try {
        zip = await JSZip.loadAsync(bytes);
      } catch {
        return failure(`corrupt or truncated ${declared === 'docx' || declared === 'pptx' || declared === 'xlsx' ? DESCRIPTIONS[declared] : 'ZIP archive'}`);
      }
      const office = officeKind(zip);
      if (!office) return failure(`${DESCRIPTIONS.zip}, not ${DESCRIPTIONS[declared ?? 'zip']}`);
      actual = office;
      break;
    }
  }

  let reported = false;
  const result = await extractAs(actual, bytes, zip, (done, total) => {
    reported = true;
    onProgress(done, total);
  });
  // Formats without pages of their own still tell the UI they are done.
  if (!reported && result.status !== 'error') onProgress(1, 1);
  if (declared === actual || result.status === 'error') return result;
  const note = `named .${extensionOf(name)} but it is really ${DESCRIPTIONS[actual]}; read it as that`;
  return { ...result, message: result.message ? `${note}; ${result.message}` : note };
}

/** Formats are imported on demand: a worker that reads a CSV never loads pdfjs or mammoth. */
async function extractAs(kind: SourceKind, bytes: Uint8Array, zip: JSZip | null, onProgress: ProgressFn): Promise<ExtractionResult> {
  switch (kind) {
    case 'pdf':
      return (await import('./formats/pdf')).extractPdf(bytes, onProgress);
    case 'image':
      return { status: 'image', markdown: '', pages: null, message: 'an image has no text layer; a vision-capable model can look at it' };
    case 'docx':
      return (await import('./formats/docx')).extractDocx(bytes);
    case 'pptx':
      return zip ? (await import('./formats/pptx')).extractPptx(zip, onProgress) : failure('corrupt PowerPoint deck');
    case 'xlsx':
      return zip ? (await import('./formats/xlsx')).extractXlsx(zip, onProgress) : failure('corrupt Excel workbook');
    case 'csv':
    case 'tsv':
      return (await import('./formats/csv')).extractCsv(decodeText(bytes).text, kind === 'tsv' ? '\t' : undefined);
    case 'text': {
      const text = decodeText(bytes).text.replace(/\r\n?/gu, '\n');
      return { status: 'ok', markdown: `${pageMarker(1)}\n${text}${text.endsWith('\n') ? '' : '\n'}`, pages: 1 };
    }
  }
}
