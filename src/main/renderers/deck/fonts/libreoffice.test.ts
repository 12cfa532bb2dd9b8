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
import { findTheme, type Theme } from '../../../../shared/specs/themes';
import { scriptRuns } from '../text-runs';
import { type MeasureStyle } from '../text-measurer';
import { createTextMeasurer } from './index';

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

interface RenderedLine {
  text: string;
  /** Right edge of the line, measured from the box's left edge (points). */
  width: number;
}

function parsePages(html: string): RenderedLine[][] {
  const pages: RenderedLine[][] = [];
  for (const page of html.matchAll(/<page [^>]*>([\s\S]*?)<\/page>/g)) {
    const words = [...(page[1] ?? '').matchAll(/<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g)].map((m) => ({
      xMax: Number(m[3]),
      yMid: (Number(m[2]) + Number(m[4])) / 2,
      text: (m[5] ?? '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"'),
    }));
    words.sort((a, b) => a.yMid - b.yMid);
    const lines: { y: number; words: typeof words }[] = [];
    for (const w of words) {
      const line = lines[lines.length - 1];
      if (line && Math.abs(line.y - w.yMid) < 4) line.words.push(w);
      else lines.push({ y: w.yMid, words: [w] });
    }
    pages.push(
      lines.map((l) => ({
        text: l.words.map((w) => w.text).join(''),
        width: Math.max(...l.words.map((w) => w.xMax)) - LEFT_IN * 72,
      })),
    );
  }
  return pages;
}

const squash = (s: string): string => s.normalize('NFKC').replace(/\s+/g, '');

describe.skipIf(!hasTools)('measurement against LibreOffice', () => {
  let work: string;
  let rendered: RenderedLine[][];
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
    rendered = parsePages(execFileSync('pdftotext', ['-bbox', '-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' }));
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
