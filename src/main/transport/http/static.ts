// Serves the built renderer. It holds no secrets, so it needs no token; what matters is that
// nothing outside `staticDir` can be reached.
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

export function contentTypeFor(path: string): string {
  return contentTypes[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Resolves a raw request path to a file inside `root`, or null. Decoding happens before the
 * containment check so `%2e%2e` is caught, and symlinks are resolved so they cannot point out.
 */
export async function resolveStaticFile(root: string, rawPathname: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const realRoot = await realpath(root).catch(() => null);
  if (realRoot === null) return null;
  const relative = decoded === '/' || decoded.endsWith('/') ? `${decoded}index.html` : decoded;
  const candidate = resolve(realRoot, `.${relative}`);
  if (!isInside(realRoot, candidate)) return null;
  const real = await realpath(candidate).catch(() => null);
  if (real === null || !isInside(realRoot, real)) return null;
  const info = await stat(real).catch(() => null);
  return info?.isFile() ? real : null;
}

function isInside(root: string, path: string): boolean {
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Returns false when nothing was found (the caller answers 404). */
export async function serveStatic(req: IncomingMessage, res: ServerResponse, root: string, rawPathname: string): Promise<boolean> {
  const file = await resolveStaticFile(root, rawPathname);
  if (file === null) return false;
  const info = await stat(file);
  res.writeHead(200, {
    'Content-Type': contentTypeFor(file),
    'Content-Length': String(info.size),
    // index.html names hashed assets, so it must be revalidated; the assets themselves may be cached.
    'Cache-Control': file.endsWith('.html') ? 'no-cache' : 'public, max-age=3600',
  });
  if (req.method === 'HEAD') {
    res.end();
    return true;
  }
  await pipeline(createReadStream(file), res);
  return true;
}
