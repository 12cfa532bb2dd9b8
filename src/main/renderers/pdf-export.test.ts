// PDF export through the real LibreOffice when it is installed (CI installs it), and through small
// fake soffice scripts for the failure paths LibreOffice itself cannot be made to take on demand.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createRenderDeckTool } from '../tools/render-deck-tool';
import { renderDocumentTool } from '../tools/render-document-tool';
import { contextFor, makeTempRoot, removeTemp, writeFiles } from '../tools/testing';
import { resetSandboxStatus, sandboxStatus } from '../sandbox/sandbox';
import { scratchDir, useScratchRoot } from '../workspace/scratch';
import { exportPdf } from './pdf-export';
import { SOFFICE_ENV, sofficePath } from './soffice';

/** Runs `body` without the sandbox: fake scripts that leave traces on the host need it off. */
async function unsandboxed<T>(body: () => Promise<T>): Promise<T> {
  const saved = process.env.FOLIO_BWRAP;
  process.env.FOLIO_BWRAP = '0';
  resetSandboxStatus();
  try {
    return await body();
  } finally {
    if (saved === undefined) delete process.env.FOLIO_BWRAP;
    else process.env.FOLIO_BWRAP = saved;
    resetSandboxStatus();
  }
}

const renderDeckTool = createRenderDeckTool();

const savedOverride = process.env[SOFFICE_ENV];
function setOverride(value: string | undefined): void {
  if (value === undefined) delete process.env[SOFFICE_ENV];
  else process.env[SOFFICE_ENV] = value;
}

setOverride(undefined);
const realSoffice = sofficePath();
if (!realSoffice) console.warn('soffice not installed (apt-get install libreoffice-impress libreoffice-writer): skipping the real PDF export tests');
const posix = process.platform !== 'win32';
const hasPdftotext = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (realSoffice && !hasPdftotext) console.warn('pdftotext not installed (apt-get install poppler-utils): skipping the notes-pages export test');

describe('exportPdf', () => {
  let root: string;
  let deckPath = '';
  let deckSlides = 0;

  beforeAll(async () => {
    root = makeTempRoot('folio-export-test-');
    const spec = {
      title: 'Export Check',
      slides: [
        { layout: 'title' },
        { layout: 'bullets', title: 'One', bullets: ['first point', 'second point'] },
        { layout: 'table', title: 'Numbers', table: { header: ['a', 'b'], rows: [['1', '2']] } },
        { layout: 'closing' },
      ],
    };
    const deck = await renderDeckTool.execute({ spec }, contextFor(root));
    deckPath = deck.touched?.[0] ?? '';
    deckSlides = Number(/: (\d+) slides in the file/u.exec(deck.content)?.[1]);
    writeFiles(root, {
      'doc/document.json': JSON.stringify({ title: 'Short report', template: 'report', language: 'en' }),
      'doc/sections/01.md': '# Introduction\n\nA short paragraph.\n\n# Results\n\nAnother one.\n',
      'notes.pptx': 'not an artifact',
      'artifacts/table.csv': 'a,b',
    });
  });
  afterEach(() => setOverride(undefined));
  afterAll(() => {
    setOverride(savedOverride);
    removeTemp(root);
  });

  it.skipIf(!realSoffice)(
    'converts a deck and a document at once (one after the other), into versioned PDFs with their page counts',
    async () => {
      const doc = await renderDocumentTool.execute({ path: 'doc' }, contextFor(root));
      const docPath = doc.touched?.[0] ?? '';
      // As in the app: the conversion stages in the scratch of a 0700 data folder that the sandbox
      // hides (keys, other tasks), and only the staging folder is bound back for LibreOffice.
      const data = makeTempRoot('folio-export-scratch-');
      chmodSync(data, 0o700);
      const release = useScratchRoot(data);
      try {
        const [deckPdf, docPdf] = await Promise.all([exportPdf(root, deckPath, { hiddenPaths: [data] }), exportPdf(root, docPath, { hiddenPaths: [data] })]);
        expect(deckPdf.path).toBe('artifacts/export-check.pdf');
        expect(deckPdf.pages).toBe(deckSlides);
        expect(docPdf.path).toBe('artifacts/Short report.pdf');
        expect(docPdf.pages).toBeGreaterThanOrEqual(1);
        for (const pdf of [deckPdf, docPdf]) expect(statSync(join(root, pdf.path)).size).toBeGreaterThan(1000);

        // Never overwrites, and leaves no staging folder behind (nor one in the shared temp folder).
        const again = await exportPdf(root, deckPath, { hiddenPaths: [data] });
        expect(again.path).toBe('artifacts/export-check-v2.pdf');
        expect(readdirSync(scratchDir(data))).toEqual([]);
        expect(statSync(scratchDir(data)).mode & 0o777).toBe(0o700);
      } finally {
        release();
        removeTemp(data);
      }
    },
    400_000,
  );

  it.skipIf(!realSoffice || !hasPdftotext)(
    'exports a deck as notes pages: one portrait page per slide, its notes under it (needs soffice and pdftotext)',
    async () => {
      const spec = {
        title: 'Notes Check',
        slides: [
          { layout: 'title', title: 'Quarterly review', notes: 'Welcome everyone, zebra opening line.' },
          { layout: 'bullets', title: 'Two points', bullets: ['first point', 'second point'], notes: 'Stress the second point, giraffe detail.' },
        ],
      };
      const deck = await renderDeckTool.execute({ spec }, contextFor(root));
      const pptx = deck.touched?.[0] ?? '';
      const slides = Number(/: (\d+) slides in the file/u.exec(deck.content)?.[1]);
      const result = await exportPdf(root, pptx, { notes: true });
      expect(result.path).toBe('artifacts/notes-check-notes.pdf');
      expect(result.pages).toBe(slides);
      const pageText = (n: number) => execFileSync('pdftotext', ['-f', String(n), '-l', String(n), join(root, result.path), '-'], { encoding: 'utf8' });
      expect(pageText(1)).toContain('zebra opening line');
      expect(pageText(1)).toContain('Quarterly review');
      expect(pageText(2)).toContain('giraffe detail');
      expect(pageText(2)).not.toContain('zebra');
      const info = execFileSync('pdfinfo', [join(root, result.path)], { encoding: 'utf8' });
      const [, w, h] = /Page size:\s+([\d.]+) x ([\d.]+)/u.exec(info) ?? [];
      expect(Number(h)).toBeGreaterThan(Number(w));
      // The plain export of the same deck is still the slides alone, under its own name.
      const plain = await exportPdf(root, pptx);
      expect(plain.path).toBe('artifacts/notes-check.pdf');
      expect(execFileSync('pdftotext', [join(root, plain.path), '-'], { encoding: 'utf8' })).not.toContain('zebra');
    },
    400_000,
  );

  it('exports notes pages only for decks', async () => {
    writeFiles(root, { 'artifacts/report.docx': 'stand-in' });
    await expect(exportPdf(root, 'artifacts/report.docx', { notes: true })).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining('notes pages') as unknown });
  });

  it('exports only .pptx and .docx files under artifacts/', async () => {
    await expect(exportPdf(root, 'notes.pptx')).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(exportPdf(root, 'artifacts/table.csv')).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining('artifacts/table.csv') as unknown });
    await expect(exportPdf(root, '../elsewhere/artifacts/x.pptx')).rejects.toMatchObject({ code: 'path_escape' });
    await expect(exportPdf(root, 'artifacts/missing.pptx')).rejects.toMatchObject({ code: 'not_found' });
  });

  it(`says how to install LibreOffice when it is missing (${SOFFICE_ENV} pointing nowhere)`, async () => {
    setOverride('/nonexistent/soffice');
    expect(sofficePath()).toBeNull();
    const err = exportPdf(root, deckPath);
    await expect(err).rejects.toMatchObject({ code: 'unsupported' });
    await expect(err).rejects.toThrow(/Exporting PDF needs LibreOffice: install libreoffice-impress and libreoffice-writer \(Debian\/Ubuntu: apt-get install/u);
    setOverride(undefined);
    expect(sofficePath()).toBe(realSoffice);
  });

  it.skipIf(!posix)('treats a conversion that exits 0 without a PDF as a failure', async () => {
    const fake = join(root, 'fake-soffice-silent.sh');
    writeFiles(root, { 'fake-soffice-silent.sh': '#!/bin/sh\nexit 0\n' });
    chmodSync(fake, 0o755);
    setOverride(fake);
    expect(sofficePath()).toBe(fake);
    await expect(exportPdf(root, deckPath)).rejects.toMatchObject({ code: 'tool_error', message: `LibreOffice could not convert ${deckPath} (no PDF was produced).` });
  });

  it.skipIf(!posix)('reports a non-zero exit with the end of stderr', async () => {
    const fake = join(root, 'fake-soffice-fail.sh');
    writeFiles(root, { 'fake-soffice-fail.sh': '#!/bin/sh\necho "Error: source file could not be loaded" >&2\nexit 81\n' });
    chmodSync(fake, 0o755);
    setOverride(fake);
    await expect(exportPdf(root, deckPath)).rejects.toThrow(/exited with code 81: Error: source file could not be loaded/u);
  });

  it.skipIf(!posix)('runs one conversion at a time', async () => {
    const log = join(root, 'soffice.log');
    const fake = join(root, 'fake-soffice-slow.sh');
    writeFiles(root, { 'fake-soffice-slow.sh': `#!/bin/sh\necho start >> '${log}'\nsleep 0.4\necho end >> '${log}'\n` });
    chmodSync(fake, 0o755);
    setOverride(fake);
    // The log is written on the host, outside what the sandbox lets a conversion write.
    const results = await unsandboxed(() => Promise.allSettled([exportPdf(root, deckPath), exportPdf(root, deckPath), exportPdf(root, deckPath)]));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['start', 'end', 'start', 'end', 'start', 'end']);
  });

  it.skipIf(!posix)('kills a conversion that hangs, children included, and the queue moves on', async () => {
    const marker = join(root, 'child-survived');
    const fake = join(root, 'fake-soffice-hang.sh');
    // The child stands in for soffice.bin, which outlives the launcher unless the group is killed.
    writeFiles(root, { 'fake-soffice-hang.sh': `#!/bin/sh\n(sleep 2; touch '${marker}') &\nsleep 30\n` });
    chmodSync(fake, 0o755);
    setOverride(fake);
    const started = Date.now();
    // Unsandboxed, so the marker could be written if the group kill missed the child (sandboxed, the
    // PID namespace dies with bwrap: sandbox/isolation.test.ts).
    await unsandboxed(() => expect(exportPdf(root, deckPath, { timeoutMs: 500 })).rejects.toThrow(/did not finish converting .* within 500 ms; it was stopped/u));
    expect(Date.now() - started).toBeLessThan(10_000);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(existsSync(marker)).toBe(false);

    const silent = join(root, 'fake-soffice-silent.sh');
    writeFiles(root, { 'fake-soffice-silent.sh': '#!/bin/sh\nexit 0\n' });
    chmodSync(silent, 0o755);
    setOverride(silent);
    await expect(exportPdf(root, deckPath)).rejects.toMatchObject({ code: 'tool_error' });
  }, 20_000);

  it.skipIf(!posix || !sandboxStatus().active)('converts in the sandbox: no keys, no token, no network (needs bubblewrap)', async () => {
    const data = makeTempRoot('folio-export-data-');
    const savedToken = process.env.FOLIO_TOKEN;
    process.env.FOLIO_TOKEN = 'tok-must-not-leak';
    try {
      writeFiles(data, { 'keys.json': '{"k":"sk-must-not-leak"}' });
      const fake = join(root, 'fake-soffice-leak.sh');
      // Interfaces come from /proc/net (this network namespace's), not /sys (the host's, bound read-only).
      const script = `#!/bin/sh
keys=$(cat '${data}/keys.json' 2>/dev/null)
net=$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\\n' ,)
echo "seen:$keys:$FOLIO_TOKEN:$net" >&2
exit 1
`;
      writeFiles(root, { 'fake-soffice-leak.sh': script });
      chmodSync(fake, 0o755);
      setOverride(fake);
      const message = await exportPdf(root, deckPath, { hiddenPaths: [data] }).then(
        () => 'converted',
        (err: unknown) => (err instanceof Error ? err.message : String(err)),
      );
      expect(message).toMatch(/seen:/u);
      expect(message).not.toContain('sk-must-not-leak');
      expect(message).not.toContain('tok-must-not-leak');
      expect(message).toMatch(/seen:::lo,\./u); // only loopback: a network namespace of its own
    } finally {
      if (savedToken === undefined) delete process.env.FOLIO_TOKEN;
      else process.env.FOLIO_TOKEN = savedToken;
      removeTemp(data);
    }
  });
});
