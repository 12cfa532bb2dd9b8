// DOCX → markdown via mammoth's HTML (which keeps headings, lists and tables that raw text loses).
// A DOCX has no fixed pages (layout decides them), so the whole document is page 1.
import mammoth from 'mammoth';
import { type ExtractionResult } from '../types';
import { pageMarker } from './markdown';
import { decodeEntities } from './xml';

/** Mammoth wraps cell text in paragraphs; inside a table row they must not become line breaks. */
function flattenCells(html: string): string {
  return html.replace(/<t([dh])((?:\s[^>]*)?)>([\s\S]*?)<\/t\1>/giu, (_m, kind: string, attrs: string, inner: string) => {
    const flat = inner.replace(/<\/p>\s*<p[^>]*>|<br\s*\/?>/giu, ' ').replace(/<\/?p(?:\s[^>]*)?>/giu, '');
    return `<t${kind}${attrs}>${flat}</t${kind}>`;
  });
}

export function htmlToMarkdown(html: string): string {
  const text = flattenCells(html)
    .replace(/<h([1-6])[^>]*>/giu, (_m, level: string) => `\n\n${'#'.repeat(Number(level))} `)
    .replace(/<\/(h[1-6]|p|ul|ol|table)>/giu, '\n\n')
    .replace(/<li[^>]*>/giu, '\n- ')
    .replace(/<tr[^>]*>/giu, '\n|')
    .replace(/<t[dh](?:\s[^>]*)?>/giu, ' ')
    .replace(/<\/t[dh]>/giu, ' |')
    .replace(/<br\s*\/?>/giu, '\n')
    .replace(/<[^>]+>/gu, '');
  return decodeEntities(text)
    .split('\n')
    .map((l) => l.replace(/\s+$/u, ''))
    .join('\n')
    .replace(/\n{3,}/gu, '\n\n')
    .trim();
}

export async function extractDocx(bytes: Uint8Array): Promise<ExtractionResult> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Images would otherwise be inlined as base64 data URIs, megabytes of noise for the model.
  const noImages = mammoth.images.imgElement(() => Promise.resolve({ src: '' }));
  const { value } = await mammoth.convertToHtml({ buffer }, { convertImage: noImages });
  const body = htmlToMarkdown(value);
  return { status: 'ok', markdown: `${pageMarker(1)}\n${body}\n`, pages: 1 };
}
