// The extraction itself, run inside the worker: decide what the bytes really are (names lie: a
// ".pdf" may be an HTML error page or a renamed .docx) and hand them to the right format.
import JSZip from 'jszip';
import { decodeText } from './formats/decode';
import { pageMarker } from './formats/markdown';
import { declaredKind, extensionOf, sniff } from './kinds';
import { zipSizeRefusal } from './limits';
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

export type Classified = { kind: SourceKind; zip: JSZip | null; note?: string } | { failure: ExtractionResult };

/** What the bytes really are, and a note for the user when that is not what the name says. */
export async function classifyBytes(bytes: Uint8Array, name: string): Promise<Classified> {
  if (bytes.length === 0) return { failure: failure('empty file') };
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
      return { failure: failure('a legacy Office file (.doc/.xls/.ppt) or a password-protected Office file: save it as .docx/.pptx/.xlsx without a password and add it again') };
    case 'binary':
      return { failure: failure(`not ${DESCRIPTIONS[declared ?? 'text']}: the bytes are an unrecognised binary format`) };
    case 'text':
      actual = declared === 'csv' || declared === 'tsv' || declared === 'text' ? declared : 'text';
      break;
    case 'zip': {
      const corrupt = failure(`corrupt or truncated ${declared === 'docx' || declared === 'pptx' || declared === 'xlsx' ? DESCRIPTIONS[declared] : 'ZIP archive'}`);
      try {
        zip = await JSZip.loadAsync(bytes);
      } catch {
        return { failure: corrupt };
      }
      const office = officeKind(zip);
      if (!office) return { failure: failure(`${DESCRIPTIONS.zip}, not ${DESCRIPTIONS[declared ?? 'zip']}`) };
      // Before any extractor inflates a part: a zip bomb is refused here, not after filling memory.
      try {
        const refusal = await zipSizeRefusal(zip, bytes.length);
        if (refusal !== null) return { failure: failure(refusal) };
      } catch {
        return { failure: corrupt };
      }
      actual = office;
      break;
    }
  }
  if (declared === actual) return { kind: actual, zip };
  return { kind: actual, zip, note: `named .${extensionOf(name)} but it is really ${DESCRIPTIONS[actual]}; read it as that` };
}

/** Puts the renamed-file note in front of the result's own message (errors speak for themselves). */
export function withNote(result: ExtractionResult, note: string | undefined): ExtractionResult {
  if (!note || result.status === 'error') return result;
  return { ...result, message: result.message ? `${note}; ${result.message}` : note };
}

export async function extractBytes(bytes: Uint8Array, name: string, onProgress: ProgressFn): Promise<ExtractionResult> {
  const classified = await classifyBytes(bytes, name);
  if ('failure' in classified) return classified.failure;
  return withNote(await extractClassified(classified, bytes, onProgress), classified.note);
}

/** Extracts bytes already classified; formats without pages of their own still report being done. */
export async function extractClassified(classified: { kind: SourceKind; zip: JSZip | null }, bytes: Uint8Array, onProgress: ProgressFn): Promise<ExtractionResult> {
  let reported = false;
  const result = await extractAs(classified.kind, bytes, classified.zip, (done, total) => {
    reported = true;
    onProgress(done, total);
  });
  if (!reported && result.status !== 'error') onProgress(1, 1);
  return result;
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
