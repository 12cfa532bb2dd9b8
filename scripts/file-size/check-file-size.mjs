// No production file over 400 lines: past that a file holds more than one job. Tests, test support
// and fixtures are exempt; so are the tables listed below, each with why it stays whole.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAX_LINES = 400;

/** Tables that read best whole: a list with one entry per method or migration, no logic to split. */
export const ALLOWED = {
  'src/shared/contract/methods.ts': 'the contract table: one entry per method, the single place routes and schemas are declared',
  'src/main/store/migrations.ts': 'the migration table: append-only SQL in order, never edited once shipped',
};

const PRODUCTION = /\.(ts|tsx|mts|mjs|js|css)$/u;
const NOT_PRODUCTION = /\.(test|test-support|fixture|bench)\.[a-z]+$|\.d\.m?ts$/u;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (PRODUCTION.test(entry.name) && !NOT_PRODUCTION.test(entry.name)) yield path;
  }
}

function lineCount(text) {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Findings as text, one per file over the limit (or allowance no longer needed); empty when all is well. */
export function checkFileSize({ baseDir = fileURLToPath(new URL('../..', import.meta.url)), roots = ['src'], allowed = ALLOWED, maxLines = MAX_LINES } = {}) {
  const findings = [];
  const seen = new Set();
  for (const root of roots) {
    for (const abs of files(join(baseDir, root))) {
      const rel = relative(baseDir, abs).split(sep).join('/');
      const lines = lineCount(readFileSync(abs, 'utf8'));
      if (rel in allowed) {
        seen.add(rel);
        if (lines <= maxLines) findings.push(`${rel}: ${lines} lines, no longer needs its allowance in scripts/file-size/check-file-size.mjs`);
        continue;
      }
      if (lines > maxLines) findings.push(`${rel}: ${lines} lines (over ${maxLines}): split it by what its parts do`);
    }
  }
  for (const rel of Object.keys(allowed)) if (!seen.has(rel)) findings.push(`${rel}: allowed in scripts/file-size/check-file-size.mjs but not found`);
  return findings;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const findings = checkFileSize();
  for (const finding of findings) console.error(finding);
  if (findings.length > 0) process.exit(1);
  console.log('File size check: no findings.');
}
