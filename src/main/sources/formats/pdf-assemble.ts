// Turns a PDF's extracted pages (from one worker or several) into the final page-marked markdown
// and decides its status. Pure, so the main thread can merge pages that two workers extracted.
import { type ExtractionResult } from '../types';
import { pageMarker } from './markdown';

/** A page "has text" with at least this many non-space characters (10 CJK characters is a sentence). */
const MIN_PAGE_CHARS = 10;

export const UNREADABLE_PAGE_TEXT = '_(this page could not be read; the file may be damaged)_';

export interface PdfHead {
  title?: string;
  author?: string;
  /** Outline (bookmarks) as indented markdown list lines. */
  outline: string[];
}

export interface PageText {
  text: string;
  /** pdfjs could not parse the page; `text` is a placeholder. */
  unreadable: boolean;
}

function countChars(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    // Cheap test for the common ASCII whitespace; anything else goes through the regex.
    if (c === 32 || c === 10 || c === 9 || c === 13) continue;
    if (c > 127 && /\s/u.test(text[i] ?? '')) continue;
    count += 1;
  }
  return count;
}

function failure(message: string): ExtractionResult {
  return { status: 'error', markdown: '', pages: null, message };
}

/** `pages[i]` is page i + 1; every page must be present. */
export function assemblePdf(head: PdfHead, pages: readonly PageText[]): ExtractionResult {
  const total = pages.length;
  const { title, author, outline } = head;
  const lines: string[] = [];
  if (title) lines.push(`# ${title}`, '');
  if (author) lines.push(`Author: ${author}`, '');
  if (outline.length > 0) lines.push('## Outline', '', ...outline, '');

  const parts: string[] = lines.length > 0 ? [lines.join('\n').trimEnd()] : [];
  let withText = 0;
  let unreadable = 0;
  let textless = 0;
  pages.forEach((page, i) => {
    if (page.unreadable) unreadable += 1;
    else if (countChars(page.text) >= MIN_PAGE_CHARS) withText += 1;
    else textless += 1;
    parts.push(`${pageMarker(i + 1)}\n${page.text}`);
  });
  const markdown = `${parts.join('\n\n')}\n`;

  if (unreadable === total) return failure('corrupt or truncated PDF');
  const readable = total - unreadable;
  if (withText === 0 || withText * 10 < readable) {
    return {
      status: 'scanned',
      markdown,
      pages: total,
      ...(title ? { title } : {}),
      message: `no text layer (scanned PDF): ${total} page${total === 1 ? '' : 's'}; OCR needs a vision-capable model`,
    };
  }
  const notes: string[] = [];
  if (unreadable > 0) notes.push(`${unreadable} of ${total} pages could not be read (damaged file?)`);
  if (textless > 0) notes.push(`${textless} of ${total} pages have no text layer (scanned images?)`);
  return { status: 'ok', markdown, pages: total, ...(title ? { title } : {}), ...(notes.length > 0 ? { message: notes.join('; ') } : {}) };
}
