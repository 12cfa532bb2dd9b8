// A PDF's compressed streams measured before pdfjs decodes them: a 1.8 MB file whose streams
// inflate to 1.4 GB held pdfjs for two minutes and took that much memory. Every FlateDecode stream
// (each Flate layer of a filter chain) is inflated with a running budget, so a bomb is refused
// after at most the budget's worth of inflating, and nothing larger is ever allocated.
import zlib from 'node:zlib';

const STREAM = Buffer.from('stream', 'latin1');
const END_STREAM = Buffer.from('endstream', 'latin1');
/** How far back from `stream` the stream's dictionary is looked for. */
const DICT_WINDOW = 4096;

/** Whether the streams inflate to more than `limit` bytes in all; the total inflated so far either way. */
export function pdfInflatesBeyond(bytes: Uint8Array, limit: number): { exceeded: boolean; total: number } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  let pos = 0;
  for (;;) {
    const at = buf.indexOf(STREAM, pos);
    if (at < 0) break;
    pos = at + STREAM.length;
    if (at >= 3 && buf.toString('latin1', at - 3, at) === 'end') continue;
    // The keyword is followed by CRLF or LF; anything else is the word inside other data.
    let start = pos;
    if (buf[start] === 0x0d) start += 1;
    if (buf[start] !== 0x0a) continue;
    start += 1;
    const end = buf.indexOf(END_STREAM, start);
    if (end < 0) break;
    pos = end + END_STREAM.length;
    const before = buf.toString('latin1', Math.max(0, at - DICT_WINDOW), at);
    const dict = before.slice(Math.max(before.lastIndexOf('endobj'), before.lastIndexOf('endstream'), 0));
    const layers = (dict.match(/\/(?:FlateDecode|Fl)(?![A-Za-z])/gu) ?? []).length;
    let data: Buffer = buf.subarray(start, end);
    for (let i = 0; i < layers; i += 1) {
      try {
        // Z_SYNC_FLUSH: a truncated stream yields what it holds (pdfjs would read that much too).
        data = zlib.inflateSync(data, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: Math.max(1, limit - total + 1) });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return { exceeded: true, total: limit + 1 };
        break; // not Flate data after all, or damaged: pdfjs reports what it can read
      }
      total += data.length;
      if (total > limit) return { exceeded: true, total };
    }
  }
  return { exceeded: false, total };
}
