// The real-client check: LibreOffice opens the rendered sample and prints it to PDF; the PDF's text
// shows the Chinese headings with their Word-computed numbering. Page images are kept in
// test-artifacts/ for a person to look at.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderDocument } from './index';

const REPO = join(import.meta.dirname, '../../../..');
const SAMPLE = join(REPO, 'samples/proposal-nsfc');
const ARTIFACTS = join(REPO, 'test-artifacts');

const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const hasTools = has('soffice') && has('pdftotext') && has('pdftoppm') && has('pdfinfo');
if (!hasTools) {
  console.warn('skipping LibreOffice rendering test: needs `soffice` and poppler-utils (apt-get install libreoffice-writer poppler-utils fonts-noto-cjk)');
}

function run(cmd: string, args: string[]): string {
  const result = spawnSync(cmd, args, { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) throw new Error(`${cmd} failed (${result.status}): ${result.stderr}`);
  return result.stdout;
}

describe('LibreOffice renders the sample (soffice)', () => {
  it.skipIf(!hasTools)(
    'converts to a PDF with numbered Chinese headings, English text, footnote and references',
    async () => {
      const work = mkdtempSync(join(tmpdir(), 'folio-lo-'));
      const { path, pageEstimate } = await renderDocument(SAMPLE, { outDir: work, fileName: 'proposal.docx' });
      // A private profile: a shared one is locked by any other running soffice.
      run('soffice', ['--headless', `-env:UserInstallation=file://${join(work, 'profile')}`, '--convert-to', 'pdf', '--outdir', work, path]);
      const pdf = join(work, 'proposal.pdf');
      // soffice exits 0 even when conversion fails, so the PDF's existence is the real check.
      expect(existsSync(pdf), `soffice produced no PDF in ${work}`).toBe(true);

      const pages = Number(/Pages:\s+(\d+)/.exec(run('pdfinfo', [pdf]))?.[1]);
      expect(pages).toBeGreaterThan(2);
      // The estimate is a heuristic; it should still be in the right range.
      expect(Math.abs(pageEstimate - pages) / pages).toBeLessThan(0.4);

      const text = run('pdftotext', ['-enc', 'UTF-8', pdf, '-']);
      const compact = text.replace(/\s+/g, '');
      for (const heading of ['一、立项依据', '（一）研究背景与意义', '二、研究目标', '三、研究方案与可行性分析', '1.版面结构自监督预训练', '六、研究基础与工作条件']) {
        // Twice: once in the contents, once in the body.
        expect(compact.split(heading).length - 1, heading).toBeGreaterThanOrEqual(2);
      }
      expect(text).toContain('LayoutLMv3');
      expect(text).toContain('Document AI');
      expect(compact).toContain('[1]Huang');
      expect(compact).toContain('[6]张明远');
      expect(compact).toContain('当前最优模型的实体级F1'); // the footnote
      expect(compact).toContain('图1低资源文档理解的总体研究框架');
      expect(compact).toContain('第1页');

      const pngDir = join(work, 'png');
      mkdirSync(pngDir);
      run('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', pdf, join(pngDir, 'cover')]);
      run('pdftoppm', ['-png', '-r', '50', '-f', '3', '-l', '3', pdf, join(pngDir, 'body')]);
      const written = readdirSync(pngDir);
      const cover = written.find((n) => n.startsWith('cover'));
      const body = written.find((n) => n.startsWith('body'));
      expect(cover && body).toBeTruthy();
      mkdirSync(ARTIFACTS, { recursive: true });
      copyFileSync(join(pngDir, cover ?? ''), join(ARTIFACTS, 'proposal-nsfc-page1.png'));
      copyFileSync(join(pngDir, body ?? ''), join(ARTIFACTS, 'proposal-nsfc-page3.png'));
      copyFileSync(pdf, join(ARTIFACTS, 'proposal-nsfc.pdf'));
    },
    180_000,
  );
});
