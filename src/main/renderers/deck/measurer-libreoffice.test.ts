// The proof: text set by the deck's own run writer (scriptRuns) in the themes' faces, converted by
// LibreOffice, read back word by word with poppler. The measurer must predict as many lines as
// LibreOffice draws (or one more, never fewer), and line widths at or a few percent above the
// rendered ones.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PptxGenJS from 'pptxgenjs';
import { isCjkChar, isFullWidthMark } from '../../../shared/specs/deck';
import { findTheme, type Theme } from '../../../shared/specs/themes';
import { scriptRuns } from './text-runs';
import { type MeasureStyle } from '../typesetting/text-measurer';
import { createTextMeasurer } from '../typesetting/fonts';

const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const hasTools = has('soffice') && has('pdftotext') && has('pdffonts');
if (!hasTools) console.warn('soffice or pdftotext not installed (apt-get install libreoffice-impress poppler-utils): skipping the LibreOffice metrics check');

const academic = findTheme('academic') as Theme;
const business = findTheme('business') as Theme;
/** Faces a user theme may name: Calibri/Microsoft YaHei are substituted on a Linux machine. */
const office: Theme = { ...business, fonts: { latinHeading: 'Calibri', latinBody: 'Calibri', cjkHeading: 'Microsoft YaHei', cjkBody: 'Microsoft YaHei' } };

interface Case {
  name: string;
  text: string;
  theme: Theme;
  role: 'heading' | 'body';
  size: number;
  bold?: boolean;
  /** Box width in inches (no insets). */
  w: number;
}

const EN = 'Local-first tools keep your sources on your own machine, so drafts, notes and decks never leave it unless you say so.';
const ZH = '本地优先的工具把资料留在你自己的电脑上：草稿、笔记和演示文稿，除非你同意，否则不会离开它。我们还支持“离线模式”（无需网络）。';
const MIX = '使用 GPT-4 模型提升 35% 的效率，并把 12 GB 的资料在 3.5 秒内整理成 20 页幻灯片。';
/** Full-width marks beside Latin text (no gap there), and ideographs beside Latin (a quarter em). */
const MARKS = '检索：BM25，幻觉（hallucination）对比GPT模型与RAG！Q&A';
const LONG = 'Internationalization and Supercalifragilisticexpialidocious counterrevolutionaries';

const CASES: Case[] = [
  { name: 'english body', text: EN, theme: business, role: 'body', size: 24, w: 6 },
  { name: 'english body narrow', text: EN, theme: business, role: 'body', size: 20, w: 3.2 },
  { name: 'english bold', text: EN, theme: business, role: 'body', size: 24, bold: true, w: 6 },
  { name: 'serif title', text: 'Typography, AVATAR and WAVE: What Makes a Deck Worth Presenting', theme: academic, role: 'heading', size: 32, bold: true, w: 7 },
  { name: 'chinese body', text: ZH, theme: business, role: 'body', size: 24, w: 6 },
  { name: 'chinese narrow', text: ZH, theme: business, role: 'body', size: 18, w: 2.6 },
  { name: 'chinese bold', text: ZH, theme: business, role: 'body', size: 24, bold: true, w: 5 },
  { name: 'chinese serif heading', text: '为什么设计师会签字：一套在渲染后检查的版式引擎', theme: academic, role: 'heading', size: 32, w: 6 },
  { name: 'mixed', text: MIX, theme: business, role: 'body', size: 24, w: 5 },
  { name: 'mixed narrow', text: MIX, theme: business, role: 'body', size: 20, w: 2.4 },
  { name: 'mixed bold', text: MIX, theme: business, role: 'body', size: 24, bold: true, w: 6 },
  { name: 'long words', text: LONG, theme: business, role: 'body', size: 28, w: 3 },
  { name: 'calibri / yahei', text: `${EN} ${MIX}`, theme: office, role: 'body', size: 20, w: 6 },
  { name: 'long title', text: `${EN} ${EN}`.slice(0, 200), theme: academic, role: 'heading', size: 32, w: 11 },
];

/** Single lines on a wide box: the rendered width against widthPt. */
const SINGLE: Case[] = [
  { name: 'latin', text: 'The quick brown fox jumps over the lazy dog', theme: business, role: 'body', size: 24, w: 12 },
  { name: 'latin bold', text: 'The quick brown fox jumps over the lazy dog', theme: business, role: 'body', size: 24, bold: true, w: 12 },
  { name: 'serif kerned', text: 'AVATAR Wave, Typography', theme: academic, role: 'heading', size: 32, w: 12 },
  { name: 'cjk', text: '中文排版需要精确的测量，标点也算。', theme: business, role: 'body', size: 24, w: 12 },
  { name: 'autospace', text: '使用GPT模型提升35%的效率', theme: business, role: 'body', size: 24, w: 12 },
  { name: 'autospace with spaces', text: '使用 GPT-4 模型提升 35% 的效率', theme: business, role: 'body', size: 24, w: 12 },
  { name: 'autospace 48pt', text: '中文ABC中文', theme: business, role: 'body', size: 48, w: 12 },
  { name: 'full-width marks beside Latin', text: MARKS, theme: business, role: 'body', size: 24, w: 12 },
  { name: 'calibri substitute', text: 'Calibri becomes whatever fontconfig says', theme: office, role: 'body', size: 24, w: 12 },
];

const LEFT_IN = 0.5;
const TOP_IN = 0.4;

function styleOf(c: Case): MeasureStyle {
  const fonts =
    c.role === 'heading'
      ? { latin: c.theme.fonts.latinHeading, cjk: c.theme.fonts.cjkHeading }
      : { latin: c.theme.fonts.latinBody, cjk: c.theme.fonts.cjkBody };
  return { fonts, sizePt: c.size, bold: c.bold ?? false };
}

interface RenderedWord {
  text: string;
  xMin: number;
  xMax: number;
  yMid: number;
}

interface RenderedLine {
  text: string;
  /** Right edge of the line, measured from the box's left edge (points). */
  width: number;
}

function pageWords(html: string): RenderedWord[][] {
  return [...html.matchAll(/<page [^>]*>([\s\S]*?)<\/page>/g)].map((page) =>
    [...(page[1] ?? '').matchAll(/<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g)].map((m) => ({
      xMin: Number(m[1]),
      xMax: Number(m[3]),
      yMid: (Number(m[2]) + Number(m[4])) / 2,
      text: (m[5] ?? '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"'),
    })),
  );
}

function parsePages(words: readonly RenderedWord[][]): RenderedLine[][] {
  return words.map((page) => {
    const sorted = [...page].sort((a, b) => a.yMid - b.yMid);
    const lines: { y: number; words: RenderedWord[] }[] = [];
    for (const w of sorted) {
      const line = lines[lines.length - 1];
      if (line && Math.abs(line.y - w.yMid) < 4) line.words.push(w);
      else lines.push({ y: w.yMid, words: [w] });
    }
    return lines.map((l) => ({
      text: l.words.map((w) => w.text).join(''),
      width: Math.max(...l.words.map((w) => w.xMax)) - LEFT_IN * 72,
    }));
  });
}

/**
 * The gaps between neighbouring words of one line where CJK text meets Latin, in em of `sizePt`:
 * pdftotext splits a line into words where the glyphs leave a gap, so a boundary it did not split
 * at is a gap of 0.
 */
function scriptGaps(line: readonly RenderedWord[], sizePt: number): { before: string; after: string; em: number }[] {
  const gaps: { before: string; after: string; em: number }[] = [];
  line.forEach((w, i) => {
    const chars = Array.from(w.text);
    chars.forEach((ch, k) => {
      const next = chars[k + 1];
      if (next !== undefined && isCjkChar(ch) !== isCjkChar(next)) gaps.push({ before: ch, after: next, em: 0 });
    });
    const next = line[i + 1];
    const after = next ? Array.from(next.text)[0] : undefined;
    const before = chars.at(-1);
    if (next && after && before && isCjkChar(before) !== isCjkChar(after)) gaps.push({ before, after, em: (next.xMin - w.xMax) / sizePt });
  });
  return gaps;
}

const squash = (s: string): string => s.normalize('NFKC').replace(/\s+/g, '');

describe.skipIf(!hasTools)('measurement against LibreOffice', () => {
  let work: string;
  let rendered: RenderedLine[][];
  let renderedWords: RenderedWord[][];
  let fonts: string;
  const measurer = createTextMeasurer();
  // The accuracy numbers, printed once so a change in them is visible in the test log.
  const ratios: string[] = [];
  const lineRatios: number[] = [];
  const lineCounts: string[] = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'folio-metrics-'));
    const pptx = new PptxGenJS();
    pptx.layout = 'LAYOUT_WIDE';
    for (const c of [...CASES, ...SINGLE]) {
      const slide = pptx.addSlide();
      const runs = scriptRuns(c.text, { role: c.role, size: c.size, color: '000000', bold: c.bold }, { theme: c.theme, cjkLang: 'zh-CN', emojiFace: null });
      slide.addText(runs, { x: LEFT_IN, y: TOP_IN, w: c.w, h: 6.5, margin: 0, valign: 'top', align: 'left', fit: 'none', wrap: true });
    }
    const file = join(work, 'metrics.pptx');
    await pptx.writeFile({ fileName: file });
    // soffice exits 0 even when conversion fails: the PDF's existence is the result.
    execFileSync('soffice', [`-env:UserInstallation=file://${join(work, 'profile')}`, '--headless', '--convert-to', 'pdf', '--outdir', work, file], {
      stdio: 'ignore',
      timeout: 180_000,
    });
    const pdf = join(work, 'metrics.pdf');
    if (!existsSync(pdf)) throw new Error(`soffice did not produce ${pdf}`);
    renderedWords = pageWords(execFileSync('pdftotext', ['-bbox', '-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' }));
    rendered = parsePages(renderedWords);
    fonts = execFileSync('pdffonts', [pdf], { encoding: 'utf8' });
  }, 240_000);

  afterAll(() => {
    if (lineRatios.length > 0) {
      console.info(
        `lines ours/LibreOffice: ${lineCounts.join(', ')}\n` +
          `same-text line width ratio: min ${Math.min(...lineRatios).toFixed(3)}, max ${Math.max(...lineRatios).toFixed(3)} over ${lineRatios.length} lines\n` +
          `single lines: ${ratios.join(', ')}`,
      );
    }
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('renders every case', () => {
    expect(rendered).toHaveLength(CASES.length + SINGLE.length);
  });

  it.each(CASES.map((c, i) => [c.name, c, i] as const))('wraps %s as LibreOffice does (never fewer lines, at most one more)', (_name, c, i) => {
    const style = styleOf(c);
    const ours = measurer.wrap(c.text, style, c.w * 72);
    const theirs = rendered[i] ?? [];
    const report = { ours, theirs: theirs.map((l) => `${l.text} (${l.width.toFixed(1)})`) };
    expect(squash(ours.join('')), 'wrap keeps every character').toBe(squash(c.text));
    lineCounts.push(`${c.name}: ${ours.length}/${theirs.length}`);
    expect(ours.length, JSON.stringify(report, null, 1)).toBeGreaterThanOrEqual(theirs.length);
    expect(ours.length, JSON.stringify(report, null, 1)).toBeLessThanOrEqual(theirs.length + 1);
    // Where a line holds the same text in both, our width is at or a few % above LibreOffice's.
    for (const [k, line] of theirs.entries()) {
      const mine = ours[k];
      if (mine === undefined || squash(mine) !== squash(line.text)) continue;
      const ratio = measurer.widthPt(mine, style) / line.width;
      lineRatios.push(ratio);
      expect(ratio, `line ${k + 1} "${mine}"`).toBeGreaterThanOrEqual(1);
      expect(ratio, `line ${k + 1} "${mine}"`).toBeLessThan(1.05);
    }
  });

  it.each(SINGLE.map((c, i) => [c.name, c, CASES.length + i] as const))('measures the single line "%s" at or a few percent above the rendered width', (name, c, i) => {
    const theirs = rendered[i] ?? [];
    expect(theirs).toHaveLength(1);
    const ratio = measurer.widthPt(c.text, styleOf(c)) / (theirs[0]?.width ?? 1);
    ratios.push(`${name}: ${ratio.toFixed(3)}`);
    expect(ratio).toBeGreaterThanOrEqual(1);
    expect(ratio).toBeLessThan(1.05);
  });

  it('sets no gap beside a full-width mark next to Latin text (its own blank is the gap), and a quarter em between ideographs and Latin', () => {
    const at = CASES.length + SINGLE.findIndex((c) => c.text === MARKS);
    const gaps = scriptGaps([...(renderedWords[at] ?? [])].sort((a, b) => a.xMin - b.xMin), 24);
    const beside = gaps.filter((g) => isFullWidthMark(g.before) || isFullWidthMark(g.after));
    const ideograph = gaps.filter((g) => !isFullWidthMark(g.before) && !isFullWidthMark(g.after));
    const shown = (list: typeof gaps): string => list.map((g) => `${g.before}|${g.after} ${g.em.toFixed(3)} em`).join(', ');
    console.info(`CJK–Latin gaps beside full-width marks: ${shown(beside)}; between ideographs and Latin: ${shown(ideograph)}`);
    expect(beside.map((g) => `${g.before}|${g.after}`)).toEqual(['：|B', '5|，', '（|h', 'n|）', 'G|！', '！|Q']);
    for (const g of beside) expect(g.em, `${g.before}|${g.after}`).toBeLessThan(0.05);
    expect(ideograph.map((g) => `${g.before}|${g.after}`)).toEqual(['比|G', 'T|模', '与|R']);
    for (const g of ideograph) expect(g.em, `${g.before}|${g.after}`).toBeGreaterThan(0.15);
  });

  it('measures each Latin face in the file LibreOffice embedded', () => {
    const embedded = fonts.replace(/\s/g, '');
    for (const face of ['Arial', 'Times New Roman', 'Calibri']) {
      const source = measurer.sourceOf(face);
      expect(source.kind).toBe('font');
      const family = source.kind === 'font' ? (source.family ?? face) : face;
      expect(embedded, `${face} → ${family}`).toContain(`+${family.replace(/\s/g, '')}`);
    }
  });
});
