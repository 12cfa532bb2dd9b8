#!/usr/bin/env node
// The `folio` command. The CLI is built with the rest of the app (`npm run build`).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const candidates = ['out/main/cli.js', 'out/main/cli.mjs'].map((p) => join(root, p));
const entry = candidates.find((p) => existsSync(p));
if (!entry) {
  console.error('Folio is not built yet: run `npm run build` (or `npm start`) first.');
  process.exit(1);
}
await import(pathToFileURL(entry).href);
