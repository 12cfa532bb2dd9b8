// Sends a `readFile` result as the file's own bytes, so a browser can save it under its real name
// (RFC 6266 / RFC 5987 `filename*`, which carries non-ASCII names such as Chinese ones).
import type { ServerResponse } from 'node:http';
import type { MethodOutput } from '../../../shared/contract/methods';

type FileBody = MethodOutput<'readFile'>;

/** A token-ish MIME type; anything else (or a header-injection attempt) becomes octet-stream. */
const SAFE_MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(; *[a-z0-9_-]+=[a-z0-9_.-]+)*$/i;

export function contentDisposition(path: string): string {
  const name = path.split(/[\\/]/).pop() || 'download';
  const asciiFallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${asciiFallback}"; filename*=UTF-8''${encoded}`;
}

export function sendDownload(res: ServerResponse, file: FileBody): void {
  const bytes = Buffer.from(file.data, file.encoding);
  res.writeHead(200, {
    'Content-Type': SAFE_MIME.test(file.mime) ? file.mime : 'application/octet-stream',
    'Content-Length': String(bytes.length),
    'Content-Disposition': contentDisposition(file.path),
    'Cache-Control': 'no-store',
    // A served document must never run script in the app's origin, whatever its type.
    'Content-Security-Policy': "sandbox; default-src 'none'",
  });
  res.end(bytes);
}
