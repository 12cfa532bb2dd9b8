// Test and bench support: a migrated database in a temporary folder, library rows written through
// the store port (as the indexer does, so the same helpers fill SQLite and PostgreSQL), and real
// PDFs' pages from the app's own extraction.
import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractFile } from '../sources';
import { pageOfEachLine } from '../sources/pages';
import { openStore } from '../store';
import type { StorePort } from '../store/port';
import { sqlitePort } from '../store/sqlite-port';

export interface TestLibraryDb {
  db: Database.Database;
  port: StorePort;
  close(): void;
}

export function openTestLibraryDb(): TestLibraryDb {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-library-'));
  const store = openStore(path.join(dir, 'folio.db'));
  return {
    db: store.db,
    port: sqlitePort(store),
    close() {
      store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function addProject(port: StorePort, name: string): Promise<string> {
  return (await port.projects.create({ id: randomUUID(), name })).id;
}

/** A library file with its pages (page i+1 = pages[i]), written in one transaction like the indexer. */
export async function addLibraryFile(port: StorePort, projectId: string | null, filePath: string, pages: readonly string[]): Promise<string> {
  const id = randomUUID();
  const sha256 = randomUUID();
  await port.library.add({ id, project_id: projectId, path: filePath, size: 0, mtime_ms: 0, sha256 });
  const written = await port.library.replacePages(
    id,
    pages.map((text, i) => ({ page: i + 1, text })),
    { status: 'ok', pages: pages.length, message: null, sha256 },
  );
  if (!written) throw new Error(`${filePath}: pages not written`);
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
