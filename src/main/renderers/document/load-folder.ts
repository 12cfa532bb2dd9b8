// Reads a document folder (document.json + sections/*.md) into a validated spec and its sections.
// Every failure names what is wrong: the JSON position, the schema field, or the missing file.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CslItem } from '@citation-js/core';
import { DocumentSpec } from '../../../shared/specs/document';
import { NotFoundError, ValidationError, formatZodError } from '../../../shared/errors';
import { findJsonError } from '../json-position';
import { readRegularFileSync } from '../../workspace/task-paths';

export type LoadedSection = { file: string; markdown: string };
export type LoadedDocument = {
  folder: string;
  spec: DocumentSpec;
  sections: LoadedSection[];
  /** Entries for `[@lib:…]` keys, made from the task's library files (tools/library-references.ts); the folder's own entries win. */
  libraryEntries?: readonly CslItem[];
};

export const SPEC_FILE = 'document.json';
export const SECTIONS_DIR = 'sections';

export function loadDocumentFolder(folder: string): LoadedDocument {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new NotFoundError(`Document folder not found: ${folder}`);
  const specPath = join(folder, SPEC_FILE);
  if (!existsSync(specPath)) throw new NotFoundError(`${SPEC_FILE} is missing in ${folder}`);

  const spec = parseSpec(readRegularFileSync(specPath, SPEC_FILE).toString('utf8'));
  const sectionsDir = join(folder, SECTIONS_DIR);
  const files = spec.sections ?? listSectionFiles(sectionsDir);
  if (files.length === 0) throw new ValidationError(`${SECTIONS_DIR}/: no .md section files found in ${folder}`);

  const missing = files.filter((file) => !isFile(join(sectionsDir, file)));
  if (missing.length > 0) {
    throw new NotFoundError(`sections: missing section file(s) ${missing.map((f) => `${SECTIONS_DIR}/${f}`).join(', ')}`);
  }
  const sections = files.map((file) => ({ file, markdown: stripBom(readRegularFileSync(join(sectionsDir, file), `${SECTIONS_DIR}/${file}`).toString('utf8')) }));
  return { folder, spec, sections };
}

/** Parses and validates document.json text; errors name the JSON line/column or the schema field. */
export function parseSpec(text: string): DocumentSpec {
  let raw: unknown;
  try {
    raw = JSON.parse(stripBom(text));
  } catch (err) {
    throw new ValidationError(`${SPEC_FILE}: malformed JSON${describeJsonError(stripBom(text), err)}`);
  }
  const parsed = DocumentSpec.safeParse(raw);
  if (!parsed.success) throw new ValidationError(`${SPEC_FILE}: ${formatZodError(parsed.error)}`);
  return parsed.data;
}

function listSectionFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md') && !name.startsWith('.') && isFile(join(dir, name)))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function describeJsonError(text: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const at = findJsonError(text);
  return at ? ` at line ${at.line}, column ${at.column}: ${message}` : `: ${message}`;
}
