// Documents laid out by LibreOffice and read back from the PDF with poppler, one soffice start for all of them
// (each start costs seconds, so the LibreOffice checks of the document engine share it):
// - the stress proposal (34 pages, 28 tables, some uncaptioned, short tables meeting page ends, Latin and long
//   Chinese headers, a table crossing pages, citations, a figure);
// - long tables placed so that, without the rule, two of them would leave their last row alone on a page;
// - the edge proposal (long Latin runs and URLs in justified Chinese, empty sections, a BOM, Windows line endings,
//   HTML, missing images, odd tables);
// - a section of wide tables (headers such as Recall@10, 数据集-1 Dataset, 版面结构预训练) after growing text;
// - the NSFC conventions in a submission copy (表 1 above the table, （1） headings, ① lists, cross-references);
// - citations against a .bib of twelve entries, the GB/T 7714 list read back with its type codes.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_AUTOSPACE_EM } from '../typesetting/autospace';
import { renderDocument, type RenderDocumentResult } from './index';
import { unbreakablePieces } from './tables';
import { documentFolder, openDocx } from './testing/docx';
import { convertToPdf } from './testing/soffice-pdf';
import { bboxBlocks, letterSpacedLines, letterSpacing, pdfLines, RIGHT_EDGE_PT, type Word, wordsOf } from './testing/pdf-lines';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const hasTools = has('soffice') && has('pdftotext');
if (!hasTools) console.warn('skipping the proposals laid out by LibreOffice: needs `soffice` and `pdftotext` (apt-get install libreoffice-writer poppler-utils fonts-noto-cjk)');

// A section of wide tables after growing text (so some table meets a page end), "GPT-4" in every sentence.
const PARAGRAPH = '本项目面向低资源场景下的文档智能理解问题，使用 LayoutLMv3 与 GPT-4 等模型，在 FUNSD、CORD 等 3 个数据集上开展研究。'.repeat(3);
const WIDE = '| 数据集-1 Dataset | Recall@10 | 版面结构预训练 | F1-score | 推理时间(ms) |\n| --- | --- | --- | --- | --- |\n| FUNSD | 0.912 | 是 | 0.874 | 123 |\n| CORD | 0.887 | 否 | 0.861 | 98 |\n';
const WIDE_HEADERS = ['数据集-1', 'Dataset', 'Recall@10', '版面结构预训练', 'F1-score', '推理时间(ms)'];

function wideTablesSection(): string {
  const out = ['# 立项依据\n'];
  for (let k = 0; k < 6; k++) {
    out.push(`## 小节${k + 1}\n`, ...Array.from({ length: k + 2 }, () => `${PARAGRAPH}\n`), `表：第${k + 1}组实验结果 {#tbl:t${k}}\n`, WIDE);
  }
  return out.join('\n');
}

const FIGURE = new Uint8Array(readFileSync(join(import.meta.dirname, '../../../../samples/proposal-nsfc/figures/framework.png')));
const NSFC_SECTION = `# 研究方案

## 技术路线

### 数据构建

#### 数据来源

数据来源见[@tbl:sources]，框架见[@fig:frame]。

表：数据来源与规模 {#tbl:sources}

| 来源单位 | 文档页数 |
| --- | --- |
| 合作医院甲 | 1200 |

#### 标注流程

1. 初步标注
2. 交叉复核

![总体框架](figures/frame.png){#fig:frame}
`;

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

/** A document's PDF read as pdftotext lays it out, one string per page. */
function layoutPages(pdf: string): string[] {
  return spawnSync('pdftotext', ['-layout', '-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8', maxBuffer: 64 << 20 }).stdout.split('\f');
}

/** Pages (0-based) holding a line that starts with the marker, as a reader sees it. */
const pagesWith = (pages: readonly string[], marker: string): number[] => pages.flatMap((page, i) => (page.split('\n').some((l) => flat(l).startsWith(marker)) ? [i] : []));

/**
 * How long tables print across pages: the tables that cross a page, and every page that holds a single row of
 * one, or its rows without the header above them.
 */
function longTablePages(pages: readonly string[], long: readonly FixtureTable[]): { crossing: number[]; faults: string[] } {
  const crossing: number[] = [];
  const faults: string[] = [];
  for (const table of long) {
    const id = tableId(table.number);
    const rowsPerPage = new Map<number, number>();
    for (let r = 1; r <= table.rows; r++) for (const p of pagesWith(pages, `${id}R${r}`)) rowsPerPage.set(p, (rowsPerPage.get(p) ?? 0) + 1);
    if (rowsPerPage.size > 1) crossing.push(table.number);
    for (const [page, count] of rowsPerPage) {
      if (count < 2) faults.push(`table ${table.number}: one row on page ${page + 1}`);
      const lines = (pages[page] ?? '').split('\n').map(flat);
      const first = lines.findIndex((l) => l.startsWith(id));
      // The header row prints above the first row on every page the table reaches.
      if (!lines.slice(0, first).some((l) => l.includes(flat(table.header[1] ?? '')))) faults.push(`table ${table.number}: no header on page ${page + 1}`);
    }
  }
  return { crossing, faults };
}

/** Every line of a document, trimmed, in order (page ends join the last line of one page to the first of the next). */
const printedLines = (pages: readonly string[]): string[] => pages.flatMap((page) => page.split('\n').map((l) => l.replace(/[\u200B\u00AD\u2060\uFEFF]/gu, '').trim())).filter((l) => l !== '');

/**
 * Where a URL runs over a line end, as "end of the line|start of the next": a URL whose last part ends the line, and a
 * next line that goes on with URL characters (a reference's next entry starts with "[n]").
 */
function urlLineBreaks(lines: readonly string[]): string[] {
  return lines.flatMap((line, i) => {
    const url = /(?:https?:\/\/|www\.)[\x21-\x7e]*$/u.exec(flat(line))?.[0];
    const next = /^[A-Za-z0-9./\-_?#&=%~]+/u.exec(flat(lines[i + 1] ?? ''))?.[0];
    return url !== undefined && next !== undefined ? [`${url}|${next}`] : [];
  });
}
/** Chicago 7.42: after a slash or double slash, or before a dot, hyphen, underscore, query, fragment or ampersand. */
const URL_BREAK_AT_MARK = /(?:\/\||\|[.\-_?#&=])/u;

/**
 * Words hyphenated at a line end inside a hyphenated compound ("Retrieval-Aug-" then "mented"): the line ends with a
 * word fragment that a hyphen joins to the word before it, or the next line's fragment is joined by one to the word after.
 */
function compoundsBrokenInsideAPart(lines: readonly string[]): string[] {
  return lines.flatMap((line, i) => {
    const next = lines[i + 1] ?? '';
    if (!/[A-Za-z]-$/u.test(line) || !/^[a-z]/u.test(next)) return [];
    const end = /[A-Za-z-]+$/u.exec(line)?.[0] ?? '';
    const start = /^[A-Za-z-]+/u.exec(next)?.[0] ?? '';
    // A break at the compound's own hyphen ("Retrieval-" before "Augmented") starts the next line with a capital or
    // ends a whole word: only a fragment joined by a hyphen to its neighbour is a fault.
    return /-[A-Za-z]+-$/u.test(end) || /^[a-z]+-/u.test(start) ? [`${end}|${start}`] : [];
  });
}

describe.skipIf(!hasTools)('documents laid out by LibreOffice (soffice)', () => {
  const stressFolder = join(FIXTURES, 'stress-proposal');
  const longFolder = join(FIXTURES, 'long-tables');
  const tables = fixtureTables(stressFolder);
  let stress: Rendered;
  let long: Rendered;
  let edge: Rendered;
  let wide: string[];
  let nsfc: string[];
  let cited: { result: RenderDocumentResult; text: string };

  beforeAll(async () => {
    const work = mkdtempSync(join(tmpdir(), 'folio-documents-lo-'));
    // The edge fixture is copied: its image path leading outside the folder must point at nothing real.
    const edgeFolder = join(work, 'edge');
    cpSync(join(FIXTURES, 'edge-proposal'), edgeFolder, { recursive: true });
    const wideFolder = documentFolder({ title: '表格排版', template: 'nsfc_general', language: 'zh-CN' }, { '01.md': wideTablesSection() });
    const nsfcFolder = documentFolder({ title: '方案', template: 'nsfc', language: 'zh-CN', submission: true }, { '01.md': NSFC_SECTION }, { 'figures/frame.png': FIGURE });
    const render = (folder: string, fileName: string, paginate = false): Promise<RenderDocumentResult> => renderDocument(folder, { outDir: work, fileName, paginate });
    // The stress and edge proposals are laid out as a person gets them: the pass that numbers the contents also
    // sets the marks of letter-spaced lines half width.
    const results = [await render(stressFolder, 'stress.docx', true), await render(longFolder, 'long.docx'), await render(edgeFolder, 'edge.docx', true), await render(join(FIXTURES, 'citations'), 'cited.docx')];
    const others = [(await render(wideFolder, 'wide.docx')).path, (await render(nsfcFolder, 'nsfc.docx')).submissionPath ?? ''];
    const pdfs = convertToPdf(work, [...results.map((r) => r.path), ...others]);
    const [s, l, e, c] = results.map((result, i) => {
      const pdf = pdfs[i] ?? '';
      return { result, pdf, pages: layoutPages(pdf) };
    });
    stress = s;
    long = l;
    edge = e;
    cited = { result: c.result, text: spawnSync('pdftotext', ['-enc', 'UTF-8', c.pdf, '-'], { encoding: 'utf8' }).stdout };
    // Word joiners, if poppler prints them, are not text a reader sees.
    wide = layoutPages(pdfs[4] ?? '').map((page) => page.replace(/\u2060/gu, ''));
    nsfc = pdfLines(pdfs[5] ?? '').flat();
  }, 600_000);

  describe('the stress proposal', () => {
    const pageOf = (marker: string): number[] => pagesWith(stress.pages, marker);

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
      const longTables = tables.filter((t) => t.rows + 1 > 6);
      expect(longTables.length).toBeGreaterThanOrEqual(1);
      const { crossing, faults } = longTablePages(stress.pages, longTables);
      expect(crossing).toEqual(longTables.map((t) => t.number));
      expect(faults).toEqual([]);
    });

    it('sets nothing beyond the right margin', () => {
      expect(overflowing(stress.pdf)).toEqual([]);
    });
  });

  describe('long tables placed to meet page ends', () => {
    it('never leave one row alone on a page, and repeat the header', () => {
      const longTables = fixtureTables(longFolder);
      expect(longTables.every((t) => t.rows + 1 > 6)).toBe(true);
      const { crossing, faults } = longTablePages(long.pages, longTables);
      // Without the rule, two of these tables leave their last row alone (tables 2 and 7 with LibreOffice 7.4).
      expect(crossing.length).toBeGreaterThanOrEqual(3);
      expect(faults).toEqual([]);
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
      // The two list items with text print as a) and b): the empty one left no lone number.
      expect(flat(text)).toContain('a)第一项');
      expect(flat(text)).toContain('b)第三项');
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
          // pdftotext splits the URL at its hyphen, which a word joiner holds to the part after it.
          if (next && /(?:^|-)ai$/u.test(w.text) && next.text.startsWith('的')) gaps.push(next.xMin - w.xMax - spread);
        });
      }
      expect(gaps).toHaveLength(2);
      // Writer's autospace is a fifth of an em (2.4 pt at 12 pt); a typed space would add another 3 pt.
      for (const gap of gaps) expect(gap).toBeLessThan((DOCUMENT_AUTOSPACE_EM + 0.1) * 12);
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

  describe('justified Chinese lines next to Latin runs', () => {
    // clreq 6.3.1.2 takes one or two characters' blank spread over a justified line as normal; a tenth of an em
    // between characters (about three over a full line) is the most allowed here. Where the Latin run after a line
    // could not join it (an acronym such as XFUND, "（https://", "Augmented" after "Retrieval-"), a typesetter first
    // sets the line's commas, stops and brackets half width (JIS X 4051, clreq 3.1.6): a line may stay spread only
    // where even that would not have made room for the run, and then by a fifth of an em at most.
    const NO_ROOM_LIMIT_EM = 0.2;
    const COMPRESSIBLE_MARK = /[、，。；：！？）」』】〕〉》（「『【〔〈《]/gu;
    const OPENING = /^[（「『【〔〈《]/u;
    const CJK_WORD = /^[\p{Script=Han}\u3000-\u303f\uff00-\uffef]+$/u;
    /** Where Chinese meets Latin text: Writer's autospace (DOCUMENT_AUTOSPACE_EM) is no room the justification made. */
    const SCRIPT_CHANGE = /\p{Script=Han}$/u;
    const LATIN_START = /^[A-Za-z0-9]/u;
    /** The run starting a line up to its first break (Chinese text, or after a hyphen or slash), and its width. */
    const leadingRun = (next: readonly Word[]): { text: string; width: number } => {
      const [first, second] = next;
      if (!first) return { text: '', width: 0 };
      const joined = OPENING.test(first.text) && first.text.length === 1 && second ? { text: first.text + second.text, xMax: second.xMax } : first;
      const run = /^[（「『【〔〈《]?[^\p{Script=Han}\u3000-\u303f\uff00-\uffef]+?(?:[-/](?=[^/])|(?=[\p{Script=Han}\u3000-\u303f\uff00-\uffef])|$)/u.exec(joined.text)?.[0] ?? '';
      return { text: run, width: ((joined.xMax - first.xMin) * [...run].length) / [...joined.text].length };
    };
    /** Lines spread for want of room that no compression of their marks would have made. */
    const noRoom = (pdf: string): Set<string> => {
      const out = new Set<string>();
      for (const [page, blocks] of bboxBlocks(pdf).entries()) {
        const lines = blocks.flat();
        lines.forEach((line, i) => {
          const text = line.map((w) => w.text).join('');
          const cjk = line.find((w) => /^[\p{Script=Han}]+$/u.test(w.text));
          const next = leadingRun(lines[i + 1] ?? []);
          if (!cjk || !/[A-Za-z0-9]/u.test(next.text)) return;
          const size = (cjk.yMax - cjk.yMin) / 1.3;
          const spacing = letterSpacing(line);
          // The room the justification spread over the line: its width less what its words take set solid.
          const solid = line.reduce((sum, w) => sum + (CJK_WORD.test(w.text) ? [...w.text].length * size : w.xMax - w.xMin), 0);
          const autospaces = line.slice(1).filter((w, k) => (SCRIPT_CHANGE.test(line[k]?.text ?? '') && LATIN_START.test(w.text)) || (/[A-Za-z0-9]$/u.test(line[k]?.text ?? '') && /^\p{Script=Han}/u.test(w.text))).length;
          const room = (line.at(-1)?.xMax ?? 0) - (line[0]?.xMin ?? 0) - solid - autospaces * DOCUMENT_AUTOSPACE_EM * size;
          const autospace = /\p{Script=Han}$/u.test(text) && !OPENING.test(next.text) ? DOCUMENT_AUTOSPACE_EM * size : 0;
          const marks = (text.match(COMPRESSIBLE_MARK)?.length ?? 0) + (OPENING.test(next.text) ? 1 : 0);
          if (room + (marks * size) / 2 < next.width + autospace && spacing <= NO_ROOM_LIMIT_EM) out.add(`page ${page + 1}: ${text}`);
        });
      }
      return out;
    };
    const spacedLines = (pdf: string): string[] => {
      const excused = noRoom(pdf);
      return letterSpacedLines(pdf).filter((line) => !excused.has(line.replace(/ \([\d.]+ em\)$/u, '')));
    };

    it('letter-spaces no justified Chinese line in the stress proposal, before a plain word, a name or a URL', () => {
      expect(spacedLines(stress.pdf)).toEqual([]);
    });

    it('letter-spaces no justified Chinese line in the edge proposal, before a long word, a name or a URL', () => {
      expect(spacedLines(edge.pdf)).toEqual([]);
    });

    it('breaks a URL over a line end only at a slash or before a dot, hyphen or query mark, in the body and the reference list', () => {
      const breaks = [...urlLineBreaks(printedLines(stress.pages)), ...urlLineBreaks(printedLines(edge.pages))];
      // The stress proposal's reference list and the edge proposal's body each carry a URL over a line end.
      expect(breaks.length).toBeGreaterThanOrEqual(2);
      for (const at of breaks) expect(at, at).toMatch(URL_BREAK_AT_MARK);
    });

    it('breaks "Retrieval-Augmented" at its own hyphen, never inside one of its words', () => {
      const stressLines = printedLines(stress.pages);
      expect(compoundsBrokenInsideAPart(stressLines)).toEqual([]);
      expect(compoundsBrokenInsideAPart(printedLines(edge.pages))).toEqual([]);
      // The fixture's compound meets a line end at its hyphen at least once.
      expect(stressLines.some((line, i) => line.endsWith('Retrieval-') && (stressLines[i + 1] ?? '').startsWith('Augmented'))).toBe(true);
    });

    it('links each bare URL to itself, without the brackets or stop after it, and prints it with no break character', async () => {
      const rels = await (await openDocx(edge.result.path)).part('word/_rels/document.xml.rels');
      const targets = [...rels.matchAll(/Target="(https?:[^"]*)"/gu)].map((m) => m[1]);
      expect(targets).toContain('https://example.org/benchmark/protocol');
      for (const target of targets) expect(target, target).toMatch(/^[\x21-\x7e]+$/u);
      const uris = [...readFileSync(edge.pdf, 'latin1').matchAll(/\/URI\s*\(([^)]*)\)/gu)].map((m) => m[1]);
      expect(uris).toContain('https://example.org/benchmark/protocol');
      for (const uri of uris) expect(uri, uri).toMatch(/^[\x21-\x7e]+$/u);
      // What a reader copies from the PDF: the URL's characters, with no zero-width space or soft hyphen among them.
      expect(edge.pages.join('')).not.toMatch(/[\u200B\u00AD]/u);
      expect(flat(edge.pages.join('\n'))).toContain('（https://example.org/benchmark/protocol）');
    });
  });

  describe('wide tables after growing text', () => {
    it('prints every header word whole, on the header line of each table', () => {
      const headerLines = wide.flatMap((page) => page.split('\n')).filter((line) => line.includes('Recall@'));
      expect(headerLines).toHaveLength(6);
      for (const line of headerLines) for (const word of WIDE_HEADERS) expect(line).toContain(word);
    });

    it('keeps each three-row table on one page with its caption', () => {
      // LibreOffice spaces the digit from the Han characters around it (autoSpaceDN): compare without spaces.
      const pages = wide.map((page) => page.replace(/[ \t]+/gu, ''));
      for (let k = 1; k <= 6; k++) {
        const holding = pages.filter((page) => page.includes(`第${k}组实验结果`));
        expect(holding).toHaveLength(1);
        const page = holding[0] ?? '';
        const from = page.indexOf(`第${k}组实验结果`);
        const next = page.indexOf('组实验结果', from + 6);
        // Between this caption and the next one (or the page's end): the whole table.
        const after = page.slice(from, next < 0 ? undefined : next);
        expect(after).toContain('FUNSD');
        expect(after).toContain('CORD');
      }
    });

    it('never ends a line with "GPT-" before its number', () => {
      const all = wide.join('\n');
      // 27 paragraphs of three sentences with GPT-4 in each: the name prints every time, whole or broken.
      expect(all.match(/GPT-\s*4/gu)?.length).toBe(3 * 27);
      expect(all).not.toMatch(/GPT-\s*\n\s*4/u);
    });
  });

  describe('the NSFC conventions in a submission copy', () => {
    it('shows 表 1 above the table text, （1） headings, ① lists and resolved cross-references', () => {
      const at = (needle: string): number => nsfc.findIndex((line) => line.includes(needle));
      // The submission copy starts with the body: the running header, then the first heading; no contents.
      expect(nsfc.slice(0, 2)).toEqual(['方案', '一、研究方案']);
      expect(at('目录')).toBe(-1);
      expect(at('（1）数据来源')).toBeGreaterThan(at('1.数据构建'));
      expect(at('（2）标注流程')).toBeGreaterThan(at('（1）数据来源'));
      const caption = at('表1数据来源与规模');
      expect(caption).toBeGreaterThan(-1);
      expect(at('合作医院甲')).toBeGreaterThan(caption);
      expect(at('来源单位')).toBe(caption + 1);
      expect(at('①初步标注')).toBeGreaterThan(-1);
      expect(at('②交叉复核')).toBeGreaterThan(at('①初步标注'));
      expect(at('图1总体框架')).toBeGreaterThan(at('②交叉复核'));
      expect(nsfc[at('数据来源见')]).toContain('数据来源见表1，框架见图1。');
    });
  });

  describe('citations', () => {
    it('prints the list with the GB/T 7714 type codes [J] [C] [M] [D] [EB/OL] (read back with pdftotext)', async () => {
      const docx = await openDocx(cited.result.path);
      expect(await docx.part('word/document.xml')).toContain('[1,4,5]');
      const text = cited.text.replace(/\s+/gu, '');
      const list = text.slice(text.lastIndexOf('参考文献'));
      expect(list).toContain('[1]张伟,李娜,王强,等.面向版面分析的文档图像理解方法[J].计算机学报,2020,43(5):801-815.');
      expect(list).toContain('LayoutLM:Pre-trainingofTextandLayoutforDocumentImageUnderstanding[C]//');
      expect(list).toContain('[3]GOODFELLOWI,BENGIOY,COURVILLEA.DeepLearning[M].Cambridge,MA:MITPress,2016.');
      expect(list).toContain('[8]王芳.复杂版面文档的结构识别研究[D].北京:清华大学,2019.');
      expect(list).toContain('2024年度国家自然科学基金项目指南[EB/OL]');
      expect(list).toContain('[2024-03-01]');
      expect(list).toMatch(/\[1\].*\[2\].*\[3\].*\[11\]/u);
      expect(list).not.toContain('SMITH');
    });
  });
});
