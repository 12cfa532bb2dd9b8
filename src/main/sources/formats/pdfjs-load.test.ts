import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { hasSoffice, installedDebianPdfs, minimalPdf, sofficePdf } from '../testing';
import { extractPdf } from './pdf';
import { pdfjsDataParams } from './pdfjs-data';
import { loadCachedModule } from './pdfjs-code-cache';
import { directWorker, DirectPort, loadPdfjs, pdfjsWorkerPath, textOnlyParams } from './pdfjs-load';
import { BIDI_LTR, FONT_CONVERT, FONT_SWITCH, patchWorkerSource, type SourcePatch, TEXT_STATE_CLONE, TEXT_TRANSFORM, TYPE1_WRAP, WORKER_PATCHES } from './pdfjs-patches';

/** pdfjs's worker module with these patches, imported as the app imports it. */
async function workerWith(patches: readonly SourcePatch[]): Promise<unknown> {
  const source = patchWorkerSource(readFileSync(pdfjsWorkerPath(), 'utf8'), patches);
  if (source === null) throw new Error('no patch applied');
  const push = Array.prototype.push;
  try {
    return (await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`)) as unknown;
  } finally {
    Array.prototype.push = push;
  }
}

/** Every page's text items (text, transform, size, line ends; font names carry the document's number, so not them) as pdfjs reads them with this worker module. */
async function textItems(workerModule: unknown, data: Uint8Array): Promise<unknown[]> {
  const pdfjs = await loadPdfjs();
  const holder = globalThis as { pdfjsWorker?: unknown };
  const kept = holder.pdfjsWorker;
  holder.pdfjsWorker = workerModule;
  try {
    const doc = await pdfjs.getDocument({ ...textOnlyParams(pdfjs, data.slice(), directWorker(pdfjs)), ...pdfjsDataParams() }).promise;
    const pages: unknown[] = [];
    for (let n = 1; n <= doc.numPages; n += 1) {
      const { items } = await (await doc.getPage(n)).getTextContent();
      pages.push(items.map((item) => ('str' in item ? { str: item.str, dir: item.dir, transform: item.transform as unknown, width: item.width, height: item.height, hasEOL: item.hasEOL } : item)));
    }
    await doc.destroy();
    return pages;
  } finally {
    holder.pdfjsWorker = kept;
  }
}

/** Text that moves the text transform every way a content stream can: rise, scaling, spacing, kerning, rotation, cm, q/Q, size changes. */
const TRANSFORM_PAGES = [
  {
    content: [
      'BT /F1 12 Tf 14 TL 72 720 Td (Plain line) Tj T* [(Ke) 120 (rn) -250 (ed)] TJ ET',
      'BT /F1 12 Tf 72 690 Td 3 Ts (raised) Tj -2 Ts (lowered) Tj 0 Ts (base) Tj ET',
      'BT /F1 10 Tf 150 Tz 2 Tc 6 Tw 72 660 Td (wide and spaced words) Tj 100 Tz 0 Tc 0 Tw ET',
      'BT /F1 12 Tf 0 1 -1 0 300 400 Tm (rotated ninety) Tj 0.866 0.5 -0.5 0.866 350 300 Tm (rotated thirty) Tj ET',
      'q 1 0 0 1 50 -40 cm BT /F1 18 Tf 72 600 Td (shifted by cm) Tj /F1 9 Tf ( then small) Tj ET Q',
      'BT /F1 12 Tf 72 560 Td (after restore) Tj ( same line) Tj ET',
    ].join('\n'),
  },
  ['Second page, first line', 'Second page, second line'],
];

describe('loading pdfjs for extraction', () => {
  it('finds every text to patch exactly once in the installed pdfjs (re-check them when upgrading pdfjs)', () => {
    const source = readFileSync(pdfjsWorkerPath(), 'utf8');
    const edits = WORKER_PATCHES.flatMap((patch) => [{ search: patch.search, replace: patch.replace }, ...(patch.with ?? [])]);
    for (const { search } of edits) {
      const at = source.indexOf(search);
      expect(at, search).toBeGreaterThanOrEqual(0);
      expect(source.indexOf(search, at + 1), search).toBe(-1);
    }
    const patched = patchWorkerSource(source);
    expect(patched).not.toBeNull();
    for (const { search, replace } of edits) {
      expect(patched).toContain(replace);
      if (!replace.includes(search)) expect(patched).not.toContain(search);
    }
    for (const { prelude } of WORKER_PATCHES) if (prelude) expect(patched?.startsWith(prelude) || patched?.includes(`\n${prelude}`)).toBe(true);
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

  it('makes all of a patch\'s edits or none of them', () => {
    const paired = { search: 'A();', replace: 'A2();', with: [{ search: 'B();', replace: 'B2();' }] };
    expect(patchWorkerSource('A();\nB();\nC();\n', [paired, { search: 'C();', replace: 'C2();' }])).toBe('A2();\nB2();\nC2();\n');
    // B is missing: A stays as it was, the other patch still applies.
    expect(patchWorkerSource('A();\nC();\n', [paired, { search: 'C();', replace: 'C2();' }])).toBe('A();\nC2();\n');
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

  it('keeping the last text transform changes no text item: same text, transforms and sizes with and without the patch', async () => {
    const others = WORKER_PATCHES.filter((patch) => patch !== TEXT_TRANSFORM);
    const [without, withIt] = [await workerWith(others), await workerWith(WORKER_PATCHES)];
    // A Type 3 font set at size 1 and scaled by the text matrix: the transform takes the glyph box's height.
    const type3 = { content: 'BT /F3 1 Tf 24 0 0 24 72 500 Tm (aaa) Tj /F1 12 Tf 72 470 Td (after) Tj ET' };
    const files: Uint8Array[] = [minimalPdf([...TRANSFORM_PAGES, type3], { type3Font: true })];
    // A CID-font Chinese book and a pdfTeX manual when Debian has them installed (CI installs them).
    for (const pdf of installedDebianPdfs().slice(0, 2)) files.push(new Uint8Array(readFileSync(pdf.path)));
    for (const data of files) {
      const expected = await textItems(without, data);
      const actual = await textItems(withIt, data);
      expect(actual).toEqual(expected);
    }
    const pages = (await textItems(withIt, files[0] ?? new Uint8Array())) as { str: string; transform: number[] }[][];
    const first = pages[0];
    // The page really moved the transform: the rotated run's matrix is a rotation, the raised one sits higher.
    expect(first?.find((item) => item.str === 'rotated ninety')?.transform.slice(0, 4)).toEqual([0, 12, -12, 0]);
    const at = (str: string) => first?.find((item) => item.str === str)?.transform;
    // The line is set at y = 690; 3 Ts raises the first run, -2 Ts lowers the next (pdfjs joins it with the one after).
    expect(at('raised')?.[5]).toBeGreaterThan(690);
    expect(at('loweredbase')?.[5]).toBeLessThan(690);
    expect(at('then small')?.slice(0, 4)).toEqual([9, 0, 0, 9]);
    const squares = pages.at(-1)?.find((item) => item.str === 'aaa');
    // Size 1 × the text matrix's 24, and in height the glyph box's 75 units at the font matrix's 0.01.
    expect(squares?.transform.slice(0, 4)).toEqual([24, 0, 0, 18]);
  }, 60_000);

  it('leaving out the fonts\' OpenType build changes no text item: same text, transforms and sizes on Type 1, CFF and CID-keyed fonts', async () => {
    const others = WORKER_PATCHES.filter((patch) => patch !== FONT_CONVERT && patch !== TYPE1_WRAP);
    const [without, withIt] = [await workerWith(others), await workerWith(WORKER_PATCHES)];
    // The Chinese book's CID-keyed CFF faces, a pdfTeX manual's Type 1 faces, and Type 1 faces with their own encodings.
    const files: Uint8Array[] = installedDebianPdfs().map((pdf) => new Uint8Array(readFileSync(pdf.path)));
    files.push(minimalPdf(TRANSFORM_PAGES));
    for (const data of files) {
      const expected = await textItems(without, data);
      expect(await textItems(withIt, data)).toEqual(expected);
    }
  }, 120_000);

  it('setting a font the page already loaded at once changes no text item', async () => {
    const others = WORKER_PATCHES.filter((patch) => patch !== FONT_SWITCH);
    const [without, withIt] = [await workerWith(others), await workerWith(WORKER_PATCHES)];
    const files: Uint8Array[] = installedDebianPdfs().map((pdf) => new Uint8Array(readFileSync(pdf.path)));
    // Two faces in turn, a size change of the same face, and a face set again after q/Q.
    const switching = 'BT /F1 12 Tf 72 720 Td (one) Tj /F2 12 Tf ( two) Tj /F1 12 Tf ( three) Tj /F1 9 Tf ( small) Tj /F2 14 Tf ( big) Tj ET q BT /F2 12 Tf 72 690 Td (again) Tj ET Q';
    files.push(minimalPdf([...TRANSFORM_PAGES, { content: switching }], { secondFont: true }));
    for (const data of files) {
      const expected = await textItems(without, data);
      expect(await textItems(withIt, data)).toEqual(expected);
    }
    const last = ((await textItems(withIt, files.at(-1) ?? new Uint8Array())) as { str: string }[][]).at(-1);
    expect(last?.map((item) => item.str).join('')).toBe('one two three small bigagain');
  }, 120_000);

  it.skipIf(!hasSoffice)('answering left-to-right text without the bidi algorithm changes no text item, and Hebrew and Arabic still run it (needs soffice)', async () => {
    const others = WORKER_PATCHES.filter((patch) => patch !== BIDI_LTR);
    const [without, withIt] = [await workerWith(others), await workerWith(WORKER_PATCHES)];
    const dir = mkdtempSync(join(tmpdir(), 'folio-bidi-'));
    try {
      const mixed = ['Plain English line, café déjà vu.', '中文段落：文档提取。', 'שלום עולם', 'مرحبا بالعالم', 'Mixed: שלום and مرحبا 123 中文'];
      const files: Uint8Array[] = [new Uint8Array(readFileSync(sofficePdf(dir, 'bidi', `${mixed.join('\n')}\n`)))];
      for (const pdf of installedDebianPdfs().slice(0, 1)) files.push(new Uint8Array(readFileSync(pdf.path)));
      for (const data of files) {
        const expected = await textItems(without, data);
        expect(await textItems(withIt, data)).toEqual(expected);
      }
      const dirs = ((await textItems(withIt, files[0] ?? new Uint8Array())) as { dir?: string }[][]).flat().map((item) => item.dir);
      expect(dirs).toContain('rtl');
      expect(dirs).toContain('ltr');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('pdfjs\'s worker run as a script, then from its V8 code cache, reads every text item as the module does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-pdfjs-cache-'));
    const source = patchWorkerSource(readFileSync(pdfjsWorkerPath(), 'utf8'));
    if (source === null) throw new Error('no patch applied');
    // A name per load: V8 keeps scripts compiled in this isolate by text and name, and would answer the second load from there.
    const load = (n: number) => {
      const push = Array.prototype.push;
      try {
        const loaded = loadCachedModule(join(dirname(pdfjsWorkerPath()), `pdf.worker.load-${n}.mjs`), source, dir, 'pdfjs-worker');
        if (loaded === null) throw new Error('pdfjs\'s worker module was not converted');
        return loaded;
      } finally {
        Array.prototype.push = push;
      }
    };
    try {
      const module = await workerWith(WORKER_PATCHES);
      const files: Uint8Array[] = [minimalPdf(TRANSFORM_PAGES), ...installedDebianPdfs().map((pdf) => new Uint8Array(readFileSync(pdf.path)))];
      const expected = await Promise.all(files.map((data) => textItems(module, data)));
      const compiled = load(1);
      expect(compiled.fromCache).toBe(false);
      for (const [i, data] of files.entries()) expect(await textItems(compiled.exports, data)).toEqual(expected[i]);
      compiled.save();
      const cached = load(2);
      expect(cached.fromCache).toBe(true);
      for (const [i, data] of files.entries()) expect(await textItems(cached.exports, data)).toEqual(expected[i]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

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
