// How much a source may grow when it is extracted. A small file can unpack to a huge one (a 408 KB
// .docx whose document.xml is hundreds of MB of repeated text became a 419 MB cache and 2.8 GB of
// memory): archives are measured before anything is inflated, and no extraction may produce more
// text than the cache limit. Both limits scale with the file, within fixed bounds.
import type JSZip from 'jszip';

const MB = 1024 * 1024;

export const SOURCE_LIMITS = {
  /** A cache may hold this many times the source's size in characters... */
  cacheRatio: 50,
  /** ...but at least this much (a 2 KB spreadsheet may legitimately expand more than 50×)... */
  cacheFloorChars: 1 * MB,
  /** ...and never more than this. */
  cacheCeilingChars: 50 * MB,
  /** The XML inside an Office file may unpack to this many times the file's size... */
  unzipRatio: 100,
  unzipFloorBytes: 64 * MB,
  unzipCeilingBytes: 512 * MB,
};

function bounded(value: number, floor: number, ceiling: number): number {
  return Math.min(Math.max(value, floor), ceiling);
}

export function maxCacheChars(sourceBytes: number): number {
  return bounded(sourceBytes * SOURCE_LIMITS.cacheRatio, SOURCE_LIMITS.cacheFloorChars, SOURCE_LIMITS.cacheCeilingChars);
}

export function maxUnzippedBytes(zipBytes: number): number {
  return bounded(zipBytes * SOURCE_LIMITS.unzipRatio, SOURCE_LIMITS.unzipFloorBytes, SOURCE_LIMITS.unzipCeilingBytes);
}

export function formatMb(bytes: number): string {
  return `${(bytes / MB).toFixed(1)} MB`;
}

/** The message of a source refused for what it would unpack or extract to; it starts "too large". */
export function tooLarge(what: string, amount: number, limit: number): string {
  return `too large: ${what} ${formatMb(amount)} (the limit for this file is ${formatMb(limit)})`;
}

/** Parts the extractors read (mammoth and ours): XML and relationships. Media is never inflated. */
const READ_PARTS = /\.(?:xml|rels)$/iu;

/** What the archive's directory says an entry unpacks to (JSZip keeps it from the central directory). */
function declaredSize(entry: JSZip.JSZipObject): number {
  const size = (entry as unknown as { _data?: { uncompressedSize?: unknown } })._data?.uncompressedSize;
  return typeof size === 'number' && size >= 0 ? size : 0;
}

/** Inflates one entry without keeping it, stopping as soon as `budget` bytes are passed. */
function inflatedSize(entry: JSZip.JSZipObject, budget: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let total = 0;
    const stream = entry.nodeStream('nodebuffer');
    stream.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > budget) {
        stream.removeAllListeners('data');
        stream.pause();
        resolve(total);
      }
    });
    stream.on('end', () => resolve(total));
    stream.on('error', reject);
  });
}

/**
 * Null when the Office file's parts unpack within the limit; else the "too large" message. The
 * directory's sizes are checked first (nothing inflated); since a directory can lie, the parts are
 * then inflated once without being kept, stopping at the limit.
 */
export async function zipSizeRefusal(zip: JSZip, zipBytes: number): Promise<string | null> {
  const limit = maxUnzippedBytes(zipBytes);
  const parts = Object.values(zip.files).filter((entry) => !entry.dir && READ_PARTS.test(entry.name));
  const declared = parts.reduce((sum, entry) => sum + declaredSize(entry), 0);
  if (declared > limit) return tooLarge('its parts unpack to', declared, limit);
  let actual = 0;
  for (const entry of parts) {
    actual += await inflatedSize(entry, limit - actual);
    if (actual > limit) return tooLarge('its parts unpack to more than', limit, limit);
  }
  return null;
}
