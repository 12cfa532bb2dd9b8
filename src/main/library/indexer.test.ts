// The library indexer on real files: incremental (unchanged bytes are never
// extracted again, changed ones are), deletion removes hits, and a process killed mid-indexing
// leaves a queue the next start finishes.
import { spawn } from 'node:child_process';
import { sqliteDatabase } from '../store/sqlite-port';
import { appendFileSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractionsStartedCount } from '../sources/extract';
import { DEBIAN_PDFS, installedDebianPdfs, PNG_BYTES } from '../sources/testing';
import { makeCore, makeDataDir, waitFor } from '../service/core-test-kit';
import { createCore, type Core } from '../service/create-core';
import { findResourcesDir } from '../config/app-paths';
import type { IndexedFile } from './indexer';

const chinese = DEBIAN_PDFS.find((p) => p.name === 'lshort-zh-cn')!;
const english = DEBIAN_PDFS.find((p) => p.name === 'shared-mime-info-spec')!;
const installed = new Set(installedDebianPdfs().map((p) => p.name));

async function withCore<T>(dataDir: string, fn: (core: Core) => Promise<T>): Promise<T> {
  const core = await makeCore(dataDir, { PATH: process.env.PATH });
  try {
    await core.indexer.idle();
    return await fn(core);
  } finally {
    await core.close();
  }
}

const hitsFor = async (core: Core, q: string) => (await core.handlers.searchLibrary({ project_id: 'personal', q })).hits.map((h) => `${h.path}#${h.page}`);

describe('library indexer', () => {
  it('re-indexes only what changed on disk, at the next start; deleting a file removes its hits', async () => {
    const dataDir = makeDataDir('http://127.0.0.1:9');
    const src = join(dataDir, 'in');
    mkdirSync(src);
    writeFileSync(join(src, 'alpha.txt'), 'alpha speaks of photosynthesis\n');
    writeFileSync(join(src, 'beta.txt'), 'beta speaks of glaciers\n');
    await withCore(dataDir, async (core) => {
      await core.handlers.addLibraryFiles({ project_id: 'personal', paths: [join(src, 'alpha.txt'), join(src, 'beta.txt')] });
      await core.indexer.idle();
      expect(await hitsFor(core, 'photosynthesis')).toEqual(['alpha.txt#1']);
    });
    const lib = join(dataDir, 'library', 'personal');
    // beta: touched, same bytes; alpha: new bytes.
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(lib, 'beta.txt'), later, later);
    appendFileSync(join(lib, 'alpha.txt'), 'and now of mitochondria\n');
    const before = extractionsStartedCount();
    await withCore(dataDir, async (core) => {
      await core.indexer.idle();
      // Only alpha was extracted again (plain text goes through the worker too).
      expect(extractionsStartedCount() - before).toBe(1);
      expect(await hitsFor(core, 'mitochondria')).toEqual(['alpha.txt#1']);
      expect(await hitsFor(core, 'glaciers')).toEqual(['beta.txt#1']);
      const files = (await core.handlers.listLibraryFiles({ project_id: 'personal' })).files;
      expect(files.map((f) => f.status)).toEqual(['ok', 'ok']);
      await core.handlers.deleteLibraryFile({ project_id: 'personal', path: 'beta.txt' });
      expect(await hitsFor(core, 'glaciers')).toEqual([]);
      expect(sqliteDatabase(core.ctx.store).prepare("SELECT count(*) AS n FROM library_fts WHERE library_fts MATCH 'glaciers'").get()).toEqual({ n: 0 });
    });
    // Removed from the folder by hand: gone from the index at the next start.
    const { rmSync } = await import('node:fs');
    rmSync(join(lib, 'alpha.txt'));
    await withCore(dataDir, async (core) => {
      expect(await hitsFor(core, 'photosynthesis')).toEqual([]);
      expect((await core.handlers.listLibraryFiles({ project_id: 'personal' })).files).toEqual([]);
    });
  });

  it('calls onIndexed once per file it indexes, after its pages are written', async () => {
    const dataDir = makeDataDir('http://127.0.0.1:9');
    const seen: { file: IndexedFile; pagesInStore: Promise<number> }[] = [];
    const core: Core = await createCore({
      dataDir,
      resourcesDir: findResourcesDir(),
      env: { PATH: process.env.PATH },
      onLibraryIndexed: (file) => seen.push({ file, pagesInStore: core.ctx.store.library.pages(file.id).then((pages) => pages.length) }),
    });
    try {
      const note = join(dataDir, 'note.md');
      writeFileSync(note, '# Note\n\nurban heat islands\n');
      await core.handlers.addLibraryFiles({ project_id: 'personal', paths: [note] });
      await core.indexer.idle();
      expect(seen).toMatchObject([{ file: { library: 'personal', path: 'note.md', status: 'ok', pages: 1 } }]);
      expect(await seen[0]?.pagesInStore).toBe(1);
    } finally {
      await core.close();
    }
  });

  it('reports a file it cannot read as error with its message, and an image as image', async () => {
    const dataDir = makeDataDir('http://127.0.0.1:9');
    const bad = join(dataDir, 'broken.pdf');
    writeFileSync(bad, Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2048, 0xff)]));
    const image = join(dataDir, 'figure.png');
    writeFileSync(image, PNG_BYTES);
    await withCore(dataDir, async (core) => {
      await core.handlers.addLibraryFiles({ project_id: 'personal', paths: [bad, image] });
      await core.indexer.idle();
      const [file, png] = (await core.handlers.listLibraryFiles({ project_id: 'personal' })).files;
      expect(file).toMatchObject({ path: 'broken.pdf', status: 'error', pages: null });
      expect(file?.message).toBeTruthy();
      expect(png).toMatchObject({ path: 'figure.png', status: 'image', pages: null });
    });
  });

  it.skipIf(!installed.has(chinese.name) || !installed.has(english.name))(
    `a process killed while indexing leaves a queue the next start finishes${installed.has(chinese.name) ? '' : ` (skipped: apt-get install ${chinese.debianPackage})`}`,
    async () => {
      const dataDir = makeDataDir('http://127.0.0.1:9');
      const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'crash-index.fixture.ts'), dataDir, chinese.path, english.path], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      await waitFor(() => /INDEXING \S+/u.test(out), 30_000);
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));

      await withCore(dataDir, async (core) => {
        const files = (await core.handlers.listLibraryFiles({ project_id: 'personal' })).files;
        expect(files.map((f) => [f.path, f.status])).toEqual([
          ['lshort-zh-cn.pdf', 'ok'],
          ['shared-mime-info-spec.pdf', 'ok'],
        ]);
        expect(files[0]?.pages).toBe(139);
        expect(await hitsFor(core, chinese.words[0])).toContain(`lshort-zh-cn.pdf#${chinese.page}`);
        expect(await hitsFor(core, english.words[1])).toContain(`shared-mime-info-spec.pdf#${english.page}`);
        const progress = (await core.handlers.listLibraryFiles({ project_id: 'personal' })).progress;
        expect(progress).toMatchObject({ total_files: 2, queued_files: 0 });
        expect(progress.indexed_pages).toBe(139 + (files[1]?.pages ?? 0));
      });
    },
    90_000,
  );
});
