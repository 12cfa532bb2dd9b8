// Two proposals laid out by LibreOffice and read back from the PDF with poppler, one conversion for both:
// the stress proposal (34 pages, 28 tables, some uncaptioned, short tables meeting page ends, Latin and long
// Chinese headers, a table crossing pages, citations, a figure) and the edge proposal (long Latin runs and
// URLs in justified Chinese, empty sections, a BOM, Windows line endings, HTML, missing images, odd tables).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderDocument, type RenderDocumentResult } from './index';
import { unbreakablePieces } from './tables';
import { convertToPdf } from './testing/soffice-pdf';
import { bboxBlocks, letterSpacing, MAX_LETTER_SPACING_EM, RIGHT_EDGE_PT, type Word, wordsOf } from './testing/pdf-lines';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const hasTools = has('soffice') && has('pdftotext');
if (!hasTools) console.warn('skipping the proposals laid out by LibreOffice: needs `soffice` and `pdftotext` (apt-get install libreoffice-writer poppler-utils fonts-noto-cjk)');

type FixtureTable = { number: number; captioned: boolean; header: string[]; rows: number };
type Rendered = { result: RenderDocumentResult; pdf: string; pages: string[] };

/** The tables of a fixture's sections in reading order; the first cell of each body row is "T<table>R<row>". */
function fixtureTables(folder: string): FixtureTable[] {
  const tables: FixtureTable[] = [];
  for (const file of readdirSync(join(folder, 'sections')).sort()) {
    const lines = readFileSync(join(folder, 'sections', file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!line.startsWith('|') || !/^\|[\s|:-]+\|$/u.test(lines[i + 1] ?? '') || (lines[i - 1] ?? '').startsWith('|')) return;
      let rows = 0;
      while ((lines[i + 2 + rows] ?? '').startsWith('|')) rows++;
      const before = lines.slice(0, i).reverse().find((l) => l.trim() !== '') ?? '';
      const header = line.split('|').slice(1, -1).map((cell) => cell.trim());
      tables.push({ number: tables.length + 1, captioned: before.startsWith('表：'), header, rows });
    });
  }
  return tables;
}

function bboxWords(pdf: string): Word[][] {
  const html = spawnSync('pdftotext', ['-bbox', '-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8', maxBuffer: 64 << 20 }).stdout;
  return html.split('<page ').slice(1).map(wordsOf);
}

/**
 * Words reaching past the right margin. A Chinese full stop or comma may hang into the margin at a line's end,
 * as Word and LibreOffice allow by default (overflowPunct) and clreq accepts: up to one character's width.
 */
function overflowing(pdf: string): string[] {
  return bboxWords(pdf).flatMap((words, i) =>
    words
      .filter((w) => w.xMax > RIGHT_EDGE_PT + 1 + (HANGING.test(w.text) ? w.yMax - w.yMin : 0))
      .map((w) => `page ${i + 1}: ${w.text} ends at ${w.xMax} pt`),
  );
}
const HANGING = /[，。、；：！？]$/u;

/** A page's words grouped into lines (same baseline), left to right. */
function lineWords(words: readonly Word[]): Word[][] {
  const lines = new Map<number, Word[]>();
  for (const w of words) lines.set(Math.round(w.yMax), [...(lines.get(Math.round(w.yMax)) ?? []), w]);
  return [...lines.values()].map((line) => line.sort((a, b) => a.xMin - b.xMin));
}
const isHanChar = (w: Word): boolean => /^\p{Script=Han}$/u.test(w.text);

/** A line as a reader sees it: no spaces (LibreOffice's autospace gaps come back as spaces), no invisible characters. */
const flat = (line: string): string => line.replace(/[\s\u200B\u00AD\u2060\uFEFF]/gu, '');
const tableId = (n: number): string => `T${String(n).padStart(2, '0')}`;

describe.skipIf(!hasTools)('proposals laid out by LibreOffice (soffice)', () => {
  const stressFolder = join(FIXTURES, 'stress-proposal');
  const tables = fixtureTables(stressFolder);
  let stress: Rendered;
  let edge: Rendered;

  beforeAll(async () => {
    const work = mkdtempSync(join(tmpdir(), 'folio-proposals-lo-'));
    // The edge fixture is copied: its image path leading outside the folder must point at nothing real.
    const edgeFolder = join(work, 'edge');
    cpSync(join(FIXTURES, 'edge-proposal'), edgeFolder, { recursive: true });
    const results = [
      await renderDocument(stressFolder, { outDir: work, fileName: 'stress.docx', paginate: false }),
      await renderDocument(edgeFolder, { outDir: work, fileName: 'edge.docx', paginate: false }),
    ];
    const pdfs = convertToPdf(work, results.map((r) => r.path));
    const [s, e] = results.map((result, i) => {
      const pdf = pdfs[i] ?? '';
      const text = spawnSync('pdftotext', ['-layout', '-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8', maxBuffer: 64 << 20 }).stdout;
      return { result, pdf, pages: text.split('\f') };
    });
    stress = s;
    edge = e;
  }, 500_000);

  describe('the stress proposal', () => {
    const pageOf = (marker: string): number[] => stress.pages.flatMap((page, i) => (page.split('\n').some((l) => flat(l).startsWith(marker)) ? [i] : []));

    it('is a long proposal with many tables, some of them uncaptioned', () => {
      expect(stress.pages.length).toBeGreaterThanOrEqual(28);
      expect(tables.length).toBeGreaterThanOrEqual(25);
      expect(tables.filter((t) => !t.captioned).length).toBeGreaterThanOrEqual(4);
      expect(stress.result.report.stats.tables).toBe(tables.length);
      expect(stress.result.report.issues.filter((i) => i.kind === 'unknown_citation' || i.kind === 'uncited_reference')).toEqual([]);
    });

    it('prints a caption above every table: its own, or a placeholder the report names', () => {
      const captionLines = stress.pages.flatMap((page) => page.split('\n').map(flat)).filter((l) => /^表\d+(第\d+组对比实验结果|【待补充表题】)$/u.test(l));
      expect(captionLines).toHaveLength(tables.length);
      const reported = stress.result.report.issues.filter((i) => i.kind === 'uncaptioned_table').map((i) => Number(/表 (\d+)/u.exec(i.message)?.[1]));
      for (const table of tables) {
        expect(captionLines[table.number - 1], `table ${table.number}`).toBe(table.captioned ? `表${table.number}第${table.number}组对比实验结果` : `表${table.number}【待补充表题】`);
        expect(reported.includes(table.number), `table ${table.number} reported`).toBe(!table.captioned);
      }
    });

    it('breaks no header word: every piece of every header prints whole on one line of the header', () => {
      for (const table of tables) {
        const page = stress.pages[pageOf(`${tableId(table.number)}R1`)[0] ?? -1] ?? '';
        const lines = page.split('\n');
        const firstRow = lines.findIndex((l) => flat(l).startsWith(`${tableId(table.number)}R1`));
        // The header's lines: from the caption down to the first body row.
        const captionAt = lines.slice(0, firstRow).findLastIndex((l) => /^表\d+/u.test(flat(l)));
        expect(captionAt, `caption of table ${table.number}`).toBeGreaterThanOrEqual(0);
        const headerLines = lines.slice(captionAt + 1, firstRow).map(flat).filter((l) => l !== '');
        for (const piece of table.header.flatMap(unbreakablePieces).map(flat)) {
          expect(headerLines.some((l) => l.includes(piece)), `"${piece}" of table ${table.number} in ${JSON.stringify(headerLines)}`).toBe(true);
        }
      }
    });

    it('keeps every table of up to six rows on one page with its caption', () => {
      for (const table of tables.filter((t) => t.rows + 1 <= 6)) {
        const id = tableId(table.number);
        const pages = new Set(Array.from({ length: table.rows }, (_, r) => pageOf(`${id}R${r + 1}`)).flat());
        expect([...pages], `rows of table ${table.number}`).toHaveLength(1);
        const [page] = [...pages];
        const caption = stress.pages[page ?? -1]?.split('\n').some((l) => new RegExp(`^表${table.number}(第|【)`, 'u').test(flat(l)));
        expect(caption, `caption of table ${table.number} on its page`).toBe(true);
      }
    });

    it('carries a long table over pages with its header repeated and never one row alone', () => {
      const long = tables.filter((t) => t.rows + 1 > 6);
      expect(long.length).toBeGreaterThanOrEqual(1);
      for (const table of long) {
        const id = tableId(table.number);
        const rowsPerPage = new Map<number, number>();
        for (let r = 1; r <= table.rows; r++) for (const p of pageOf(`${id}R${r}`)) rowsPerPage.set(p, (rowsPerPage.get(p) ?? 0) + 1);
        expect(rowsPerPage.size, `table ${table.number} crosses a page`).toBeGreaterThan(1);
        for (const [page, count] of rowsPerPage) {
          expect(count, `rows of table ${table.number} on page ${page + 1}`).toBeGreaterThanOrEqual(2);
          const lines = (stress.pages[page] ?? '').split('\n').map(flat);
          const first = lines.findIndex((l) => l.startsWith(id));
          // The header row prints above the first row on every page the table reaches.
          expect(lines.slice(0, first).some((l) => l.includes(flat(table.header[1] ?? ''))), `header of table ${table.number} on page ${page + 1}`).toBe(true);
        }
      }
    });

    it('letter-spaces a justified Chinese line only before a name too long to join it', () => {
      const spaced: string[] = [];
      for (const [page, blocks] of bboxBlocks(stress.pdf).entries()) {
        const lines = blocks.flat();
        lines.forEach((line, i) => {
          // Only a line that runs to the right margin was justified (a paragraph's last line is not).
          if ((line.at(-1)?.xMax ?? 0) < RIGHT_EDGE_PT - 2 || letterSpacing(line) <= MAX_LETTER_SPACING_EM) return;
          const next = lines[i + 1]?.map((w) => w.text).join('') ?? '';
          // A name (an acronym, camelCase, letters with digits) is never broken; a plain word is hyphenated and a
          // Chinese mark before a Latin word lets the line break after it, so neither may leave a gap.
          if (!/^[（(“]?(?:[A-Z]{2,}|\p{Script=Latin}+[A-Z\d])/u.test(next)) spaced.push(`page ${page + 1}: ${line.map((w) => w.text).join('')} / ${next.slice(0, 12)}`);
        });
      }
      expect(spaced).toEqual([]);
    });

    it('sets nothing beyond the right margin', () => {
      expect(overflowing(stress.pdf)).toEqual([]);
    });
  });

  describe('the edge proposal', () => {
    const all = (): string => edge.pages.join('\n');

    it('reports what it could not print, and prints none of the markup', () => {
      const kinds = new Set(edge.result.report.issues.map((i) => i.kind));
      for (const kind of ['empty_section', 'unsupported_markdown', 'empty_list_item', 'undefined_footnote', 'missing_image', 'uncaptioned_table', 'missing_section'] as const) {
        expect(kinds.has(kind), kind).toBe(true);
      }
      const text = all();
      expect(text).not.toMatch(/\uFEFF|<div|<!--|\[\^missing\]|\r/u);
      expect(flat(text)).toContain('（一）立项依据与研究内容');
      // The HTML block is reported, not printed.
      expect(flat(text)).not.toContain('原始HTML块');
      // The two list items with text print as ① and ②: the empty one left no lone number.
      expect(flat(text)).toContain('①第一项');
      expect(flat(text)).toContain('②第三项');
    });

    it('sets a URL in Chinese text with the autospace gap alone, no typed space beside it', () => {
      const lines = bboxWords(edge.pdf).flatMap(lineWords);
      const gaps: number[] = [];
      for (const line of lines) {
        // Gaps the justification added between Han characters on the line, which every gap on it shares.
        const spread = Math.max(0, ...line.slice(1).map((w, i) => (isHanChar(w) && isHanChar(line[i]) ? w.xMin - line[i].xMax : 0)));
        line.forEach((w, i) => {
          const next = line[i + 1];
          if (next && /见$/u.test(w.text) && next.text.startsWith('https://')) gaps.push(next.xMin - w.xMax - spread);
          if (next && w.text.endsWith('-ai') && next.text.startsWith('的')) gaps.push(next.xMin - w.xMax - spread);
        });
      }
      expect(gaps).toHaveLength(2);
      // LibreOffice's autospace is a quarter em (3 pt at 12 pt); a typed space would add another 3 pt.
      for (const gap of gaps) expect(gap).toBeLessThan(0.3 * 12);
    });

    it('sets a caption written between two tables above the table below it', () => {
      const lines = all().split('\n').map(flat).filter((l) => l !== '');
      const below = (caption: string): string | undefined => lines[lines.indexOf(caption) + 1];
      expect(below('表1【待补充表题】')).toBe('单列表格');
      expect(below('表2含空单元格的表格')).toBe('名称备注');
    });

    it('sets nothing beyond the right margin', () => {
      expect(overflowing(edge.pdf)).toEqual([]);
    });
  });
});
