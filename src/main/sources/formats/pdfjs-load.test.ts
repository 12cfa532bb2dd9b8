import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { minimalPdf } from '../testing';
import { extractPdf } from './pdf';
import { DirectPort, loadPdfjs, patchWorkerSource, pdfjsWorkerPath, TEXT_STATE_CLONE, WORKER_PATCHES } from './pdfjs-load';

describe('loading pdfjs for extraction', () => {
  it('finds every text to patch exactly once in the installed pdfjs (re-check them when upgrading pdfjs)', () => {
    const source = readFileSync(pdfjsWorkerPath(), 'utf8');
    for (const { search } of WORKER_PATCHES) {
      const at = source.indexOf(search);
      expect(at, search).toBeGreaterThanOrEqual(0);
      expect(source.indexOf(search, at + 1), search).toBe(-1);
    }
    const patched = patchWorkerSource(source);
    expect(patched).not.toBeNull();
    for (const { search, replace, prelude } of WORKER_PATCHES) {
      expect(patched).toContain(replace);
      if (!replace.includes(search)) expect(patched).not.toContain(search);
      if (prelude) expect(patched?.startsWith(prelude) || patched?.includes(`\n${prelude}`)).toBe(true);
    }
    // A relative source map cannot resolve against a data: URL; with source maps on, it fails the import.
    expect(source).toMatch(/\/\/# sourceMappingURL=pdf\.worker\.mjs\.map\s*$/u);
    expect(patched).not.toContain('sourceMappingURL');
  });

  it('patches only that line and drops the source-map comment', () => {
    expect(patchWorkerSource(`a;\n${TEXT_STATE_CLONE.search}\nb;\n//# sourceMappingURL=x.map\n`)).toBe(`a;\n${TEXT_STATE_CLONE.replace}\nb;\n`);
  });

  it('leaves a source alone when the text is missing or ambiguous', () => {
    expect(patchWorkerSource('class A {}')).toBeNull();
    expect(patchWorkerSource(`${TEXT_STATE_CLONE.search}\n${TEXT_STATE_CLONE.search}`)).toBeNull();
  });

  it('applies the patches it finds, leaves out the others, and puts their imports first', () => {
    const withImport = { search: 'B();', replace: 'folioB();', prelude: 'import folioB from "b";\n' };
    expect(patchWorkerSource('A();\nB();\n', [{ search: 'A();', replace: 'A2();' }, withImport, { search: 'C();', replace: 'C2();' }])).toBe(
      'import folioB from "b";\nA2();\nfolioB();\n',
    );
  });

  it('keeps the native Array.prototype.push, and the patched pdfjs still extracts text', async () => {
    const push = Array.prototype.push;
    await loadPdfjs();
    expect(Array.prototype.push).toBe(push);
    const pages: number[] = [];
    const result = await extractPdf(minimalPdf([['First page text here'], ['Second page text here']], { title: 'Loaded' }), (done) => pages.push(done));
    expect(result).toMatchObject({ status: 'ok', pages: 2, title: 'Loaded' });
    expect(result.markdown).toBe('# Loaded\n\n<!-- page 1 -->\nFirst page text here\n\n<!-- page 2 -->\nSecond page text here\n');
    expect(pages).toEqual([1, 2]);
    // pdfjs's display module did not load the native canvas module (see canvas-deferral.ts).
    const fromPdfjs = createRequire(createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.mjs'));
    expect(fromPdfjs.cache[fromPdfjs.resolve('@napi-rs/canvas')]).toBeUndefined();
  }, 30_000);

  it('DirectPort delivers messages later, uncloned, but with stream chunks detached from the sender', async () => {
    const port = new DirectPort();
    const seen: unknown[] = [];
    port.addEventListener('message', (event) => seen.push(event.data));
    const items = [{ str: 'a' }];
    const chunk = { items, styles: {} };
    const bytes = new Uint8Array([1, 2]);
    port.postMessage({ stream: 4, chunk });
    port.postMessage({ data: bytes });
    // What pdfjs's text stream does right after sending a chunk.
    chunk.items = [];
    expect(seen).toEqual([]);
    await Promise.resolve();
    expect(seen).toEqual([{ stream: 4, chunk: { items: [{ str: 'a' }], styles: {} } }, { data: bytes }]);
    expect((seen[0] as { chunk: { items: unknown[] } }).chunk.items).toBe(items);
    expect((seen[1] as { data: Uint8Array }).data).toBe(bytes);
    port.terminate();
    port.postMessage({ late: true });
    await Promise.resolve();
    expect(seen).toHaveLength(2);
  });
});
