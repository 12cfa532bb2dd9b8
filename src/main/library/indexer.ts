// The library indexer: extracts library files in the sources' worker pool (the
// same page-marked extraction and statuses as task sources) and writes each file's pages in one
// transaction. The queue is the store itself (files with status pending/indexing), so a restart
// resumes where it stopped; a file whose indexed_sha256 equals its sha256 is never extracted again.
import { stat } from 'node:fs/promises';
import { PERSONAL_LIBRARY, type LibraryId } from '../../shared/contract/projects';
import { extractFile } from '../sources';
import type { LibraryFileRow } from '../store';
import type { StorePort } from '../store/port';
import { libraryFilePath } from '../workspace/library-paths';
import { sha256File } from '../workspace/added-files';
import { splitPages } from './page-text';

export interface IndexedFile {
  id: string;
  library: LibraryId;
  path: string;
  status: LibraryFileRow['status'];
  pages: number | null;
}

export interface IndexerOptions {
  store: StorePort;
  dataDir: string;
  /** After each file's pages are written (the embedding backfill starts from here). */
  onIndexed?: (file: IndexedFile) => void;
  /** Extraction limits (tests tighten the timeout). */
  timeoutMs?: number;
}

export function libraryIdOf(row: Pick<LibraryFileRow, 'project_id'>): LibraryId {
  return row.project_id ?? PERSONAL_LIBRARY;
}

export class LibraryIndexer {
  private readonly controller = new AbortController();
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private starting: Promise<void> = Promise.resolve();

  constructor(private readonly opts: IndexerOptions) {}

  /**
   * At start: files changed on disk since they were indexed are queued again (size and mtime first,
   * then the hash), files gone from disk are dropped with their pages, and the queue left by the
   * last run (pending, or cut off while indexing) is worked through.
   */
  start(): Promise<void> {
    this.starting = this.rescan().then(() => this.kick());
    return this.starting;
  }

  /** Works through the queue; files queued meanwhile are picked up in the same pass. */
  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.again && !this.closed) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Resolves when the queue is empty (tests, the benchmark). */
  async idle(): Promise<void> {
    await this.starting.catch(() => undefined);
    while (this.running) await this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.controller.abort();
    await this.running?.catch(() => undefined);
  }

  private async rescan(): Promise<void> {
    const { store, dataDir } = this.opts;
    for (const row of await store.library.all()) {
      if (this.closed) return;
      let info;
      try {
        info = await stat(libraryFilePath(dataDir, libraryIdOf(row), row.path));
      } catch {
        // Removed from the library folder by hand: its pages (and hits) go with it.
        await store.library.delete(row.project_id, row.path);
        continue;
      }
      const mtime = Math.trunc(info.mtimeMs);
      if (info.size === row.size && mtime === row.mtime_ms) continue;
      const sha256 = await sha256File(libraryFilePath(dataDir, libraryIdOf(row), row.path));
      if (sha256 === row.sha256) await store.library.touched(row.id, mtime);
      else await store.library.changed(row.id, { size: info.size, mtime_ms: mtime, sha256 });
    }
  }

  private async drain(): Promise<void> {
    const { store } = this.opts;
    // Once per file per pass: a file that stays pending (extraction cancelled) waits for the next kick.
    const tried = new Set<string>();
    for (;;) {
      if (this.closed) return;
      const next = (await store.library.queued()).find((r) => !tried.has(r.id));
      if (!next) return;
      tried.add(next.id);
      await this.indexOne(next);
    }
  }

  private async indexOne(row: LibraryFileRow): Promise<void> {
    const { store, dataDir } = this.opts;
    const library = libraryIdOf(row);
    const abs = libraryFilePath(dataDir, library, row.path);
    await store.library.setStatus(row.id, 'indexing');
    const result = await extractFile(abs, { signal: this.controller.signal, ...(this.opts.timeoutMs ? { timeoutMs: this.opts.timeoutMs } : {}) });
    if (this.closed) {
      // Cut off by close(): left queued, so the next start picks it up.
      await store.library.setStatus(row.id, 'pending');
      return;
    }
    const hasText = result.status === 'ok' || result.status === 'scanned';
    const pages = hasText ? splitPages(result.markdown) : [];
    const written = await store.library.replacePages(row.id, pages, {
      status: result.status,
      pages: hasText ? (result.pages ?? pages.length) : null,
      message: result.message ?? null,
      sha256: row.sha256,
    });
    if (written) this.opts.onIndexed?.({ id: row.id, library, path: row.path, status: result.status, pages: hasText ? (result.pages ?? pages.length) : null });
  }
}
