// Test and bench support: a migrated database in a temporary folder, library rows written directly
// (as lib-backend's indexer does), and real PDFs' pages from the app's own extraction.
import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractFile } from '../sources';
import { pageOfEachLine } from '../sources/pages';
import { openDatabase } from '../store/open-database';

export interface TestLibraryDb {
  db: Database.Database;
  close(): void;
}

export function openTestLibraryDb(): TestLibraryDb {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-library-'));
  const db = openDatabase(path.join(dir, 'folio.db'));
  return {
    db,
    close() {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function addProject(db: Database.Database, name: string): string {
  const id = randomUUID();
  db.prepare('INSERT INTO projects (id, name, created_at, updated_at) VALUES (?, ?, 0, 0)').run(id, name);
  return id;
}

/** A library file with its pages (page i+1 = pages[i]), in one transaction like the indexer. */
export function addLibraryFile(db: Database.Database, projectId: string | null, filePath: string, pages: readonly string[]): string {
  const id = randomUUID();
  const insertPage = db.prepare('INSERT INTO library_pages (file_id, page, text) VALUES (?, ?, ?)');
  db.transaction(() => {
    db.prepare(
      `INSERT INTO library_files (id, project_id, path, size, mtime_ms, sha256, status, pages, created_at, updated_at)
       VALUES (?, ?, ?, 0, 0, '', 'ok', ?, 0, 0)`,
    ).run(id, projectId, filePath, pages.length);
    pages.forEach((text, i) => insertPage.run(id, i + 1, text));
  })();
  return id;
}

/** The page texts of extraction markdown (`<!-- page N -->` markers), index 0 = page 1. */
export function splitPages(markdown: string): string[] {
  const lines = markdown.split('\n');
  const pageOf = pageOfEachLine(lines);
  const pages: string[][] = [];
  lines.forEach((line, i) => {
    const page = pageOf[i];
    if (page === null || page === undefined || line.startsWith('<!-- page ')) return;
    (pages[page - 1] ??= []).push(line);
  });
  return Array.from(pages, (p) => (p ?? []).join('\n').trim());
}

/** A PDF's pages as Folio extracts them (worker threads, page markers). */
export async function extractPdfPages(pdfPath: string): Promise<string[]> {
  const result = await extractFile(pdfPath);
  if (result.status !== 'ok') throw new Error(`${pdfPath}: ${result.status} ${result.message ?? ''}`);
  return splitPages(result.markdown);
}
