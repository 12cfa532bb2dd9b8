// Which files are sources, what their names claim they are, and what their first bytes say they are.

import { type SourceKind } from './types';

const KIND_BY_EXTENSION: Record<string, SourceKind> = {
  pdf: 'pdf',
  docx: 'docx',
  pptx: 'pptx',
  xlsx: 'xlsx',
  xlsm: 'xlsx',
  csv: 'csv',
  tsv: 'tsv',
  md: 'text',
  markdown: 'text',
  txt: 'text',
  text: 'text',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  webp: 'image',
  bmp: 'image',
  tif: 'image',
  tiff: 'image',
};

export const SOURCE_DIR = 'source';
/** Appended to a source's name for its extracted markdown: `report.pdf` → `report.pdf.md`. */
export const CACHE_SUFFIX = '.md';
const SIDECAR_SUFFIX = '.extract.json';

export function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** The kind a file's name claims, or null when the extension is not a source format. */
export function declaredKind(name: string): SourceKind | null {
  return KIND_BY_EXTENSION[extensionOf(name)] ?? null;
}

function normalise(relPath: string): string {
  return relPath.replace(/\\/gu, '/').replace(/^\.\//u, '');
}

function isUnderSourceDir(relPath: string): boolean {
  return normalise(relPath).startsWith(`${SOURCE_DIR}/`);
}

function baseName(relPath: string): string {
  const p = normalise(relPath);
  return p.slice(p.lastIndexOf('/') + 1);
}

/** A cache file's name while it is being written, before the rename that makes it whole. */
export function cacheTempPathFor(cacheRel: string, pid: number, stamp: number): string {
  return `${cacheRel}.${pid}.${stamp}.tmp`;
}
const CACHE_TEMP_TAIL = /\.\d+\.\d+\.tmp$/u;

/**
 * `source/.report.pdf.extract.json` and `source/report.pdf.md` are Folio's, not the person's, and so
 * are their temporary files while they are written: a listing taken in that moment must not show one.
 */
export function isCacheFile(relPath: string): boolean {
  if (!isUnderSourceDir(relPath)) return false;
  if (CACHE_TEMP_TAIL.test(relPath)) return isCacheFile(relPath.replace(CACHE_TEMP_TAIL, ''));
  const base = baseName(relPath);
  if (base.startsWith('.') && base.endsWith(SIDECAR_SUFFIX)) {
    return declaredKind(base.slice(1, -SIDECAR_SUFFIX.length)) !== null;
  }
  if (!base.toLowerCase().endsWith(CACHE_SUFFIX)) return false;
  return declaredKind(base.slice(0, -CACHE_SUFFIX.length)) !== null;
}

/** A file under `source/` in a format Folio can extract (or at least classify, for images). */
export function isExtractable(relPath: string): boolean {
  if (!isUnderSourceDir(relPath) || isCacheFile(relPath)) return false;
  const base = baseName(relPath);
  if (base.startsWith('.')) return false;
  return declaredKind(base) !== null;
}

export function cachePathFor(relPath: string): string {
  return `${normalise(relPath)}${CACHE_SUFFIX}`;
}

export function sidecarPathFor(relPath: string): string {
  const p = normalise(relPath);
  const slash = p.lastIndexOf('/');
  return `${p.slice(0, slash + 1)}.${p.slice(slash + 1)}${SIDECAR_SUFFIX}`;
}

/** The source a cache file belongs to (`source/a.pdf.md` → `source/a.pdf`), or null. */
export function sourceOfCacheFile(relPath: string): string | null {
  if (!isCacheFile(relPath)) return null;
  const p = normalise(relPath);
  return p.toLowerCase().endsWith(CACHE_SUFFIX) && !baseName(p).startsWith('.') ? p.slice(0, -CACHE_SUFFIX.length) : null;
}

export type Sniffed = 'pdf' | 'zip' | 'ole' | 'image' | 'text' | 'binary';

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((b, i) => bytes[at + i] === b);
}

const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const IMAGES: readonly { signature: readonly number[]; mime: string }[] = [
  { signature: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], mime: 'image/png' },
  { signature: [0xff, 0xd8, 0xff], mime: 'image/jpeg' },
  { signature: [0x47, 0x49, 0x46, 0x38], mime: 'image/gif' }, // GIF8
  { signature: [0x42, 0x4d], mime: 'image/bmp' },
  { signature: [0x49, 0x49, 0x2a, 0x00], mime: 'image/tiff' }, // little-endian
  { signature: [0x4d, 0x4d, 0x00, 0x2a], mime: 'image/tiff' }, // big-endian
];

/** A raster picture's type from its first bytes, whatever its file name says (a JPEG saved as .png is common). */
export function imageMimeOf(head: Uint8Array): string | undefined {
  return IMAGES.find((i) => startsWith(head, i.signature))?.mime;
}

/** Classifies a file by its first bytes (at least 1 KB for PDFs, whose header may follow junk). */
export function sniff(head: Uint8Array): Sniffed {
  if (startsWith(head, ZIP)) return 'zip';
  if (startsWith(head, OLE)) return 'ole';
  if (imageMimeOf(head)) return 'image';
  if (startsWith(head, [0x52, 0x49, 0x46, 0x46]) && startsWith(head, [0x57, 0x45, 0x42, 0x50], 8)) return 'image'; // RIFF....WEBP
  // The PDF spec lets readers accept a header within the first 1024 bytes.
  const window = head.subarray(0, 1024);
  for (let i = 0; i + PDF.length <= window.length; i += 1) if (startsWith(window, PDF, i)) return 'pdf';
  if (startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff])) return 'text'; // UTF-16 BOM
  const end = Math.min(head.length, 8192);
  for (let i = 0; i < end; i += 1) if (head[i] === 0) return 'binary';
  return 'text';
}
