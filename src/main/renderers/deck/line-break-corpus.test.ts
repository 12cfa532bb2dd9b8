// The line-breaking corpus, judged from LibreOffice's own output: Chinese, mixed and number-heavy
// paragraphs drawn by the deck's text drawer (CJK paragraphs carry the breaks the measurer chose),
// converted to PDF, read back line by line with poppler. Every rendered line must be the planned
// line (the count of disagreements is printed), no last line may hold one CJK character or a lone
// number alone, and no word, unit or formula may be split across lines.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withoutTypedCjkGaps } from '../../../shared/specs/deck';
import { type TextElement } from '../../../shared/specs/deck-plan';
import { findTheme, type Theme } from '../../../shared/specs/themes';
import { drawContext, writeDeck } from './draw/test-support';
import { drawText } from './draw/text';
import { paragraphLines } from './plan/text';
import { readPdfWords, type RenderedPage } from './verify/pdf-words';
import { createTextMeasurer } from '../typesetting/fonts';

const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const hasTools = has('soffice') && has('pdftotext');
if (!hasTools) console.warn('soffice or pdftotext not installed (apt-get install libreoffice-impress poppler-utils): skipping the line-breaking corpus');

const CORPUS = [
  '城市热岛强度在夏季午后最为明显，驱动力主要来自不透水面和人为热排放。',
  '夏季午后热岛效应增强，夜间随风速增加而减弱。',
  '十二个站点的观测表明，热岛强度等级与建筑密度、绿地比例显著相关。',
  '方法 1 的召回率比基线高 4.2 个百分点，差异显著（p < 0.01），样本量 n = 120。',
  '城区夏季平均气温比郊区高 0.8 °C，极端高温日数增加 12 天，能耗上升 3.5%。',
  '使用 GPT-4 模型提升 35% 的效率，并把 12 GB 的资料在 3.5 秒内整理成 20 页幻灯片。',
  '我们提出一种基于“多源遥感数据”的热岛识别方法：先融合 Landsat 8 与 MODIS 地表温度，再用随机森林估计逐小时的强度。',
  '预算合计 ¥1.2 亿元，其中设备费 3,200 万元（占 26.7%），人员费 4,500 万元。',
];
const TYPED_SPACES = '基于 Transformer 的方法，超过 300 万篇';
const WIDTHS_IN = [2.6, 3.4, 4.3, 5.5];
const SIZES = [18, 24];

const LEFT_IN = 0.5;
const TOP_IN = 0.4;
const squash = (s: string): string => s.normalize('NFKC').replace(/\s+/g, '');
const orphan = (line: string): boolean => /^\p{Script=Han}[，。、；：！？）」』]*$/u.test(line);
/** A number with its unit, or a relation, alone on a (squashed) line with its closing marks: "3.5%。", "n=120。". */
const loneNumber = (line: string): boolean => /^(?:\p{L}[<=>])?\p{N}[\p{N}.,]*(?:%|°C|\p{Script=Han})?[，。、；：！？）」』]*$/u.test(line);
const UNITS = ['热岛', '强度', '等级', '午后', '减弱', '驱动力', '0.8°C', 'p<0.01', 'n=120', '12GB', '35%', '方法1', '4.2个', '12天', '3.5%', '亿元', '万元'];

interface Case {
  text: string;
  w: number;
  size: number;
}

function parseLines(html: string): string[][] {
  const pages: string[][] = [];
  for (const page of html.matchAll(/<page [^>]*>([\s\S]*?)<\/page>/g)) {
    const words = [...(page[1] ?? '').matchAll(/<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g)].map((m) => ({
      x: Number(m[1]),
      y: (Number(m[2]) + Number(m[4])) / 2,
      text: (m[5] ?? '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"'),
    }));
    words.sort((a, b) => a.y - b.y || a.x - b.x);
    const lines: { y: number; words: typeof words }[] = [];
    for (const w of words) {
      const line = lines[lines.length - 1];
      if (line && Math.abs(line.y - w.y) < 4) line.words.push(w);
      else lines.push({ y: w.y, words: [w] });
    }
    pages.push(lines.map((l) => l.words.sort((a, b) => a.x - b.x).map((w) => w.text).join('')));
  }
  return pages;
}

describe.skipIf(!hasTools)('line-breaking corpus against LibreOffice', () => {
  const theme = findTheme('business') as Theme;
  const measurer = createTextMeasurer();
  // Typeset as the deck sets spec text: LibreOffice's own gap between Chinese and Latin, no typed space.
  const cases: Case[] = CORPUS.map(withoutTypedCjkGaps).flatMap((text) => WIDTHS_IN.flatMap((w) => SIZES.map((size) => ({ text, w, size }))));
  let work: string;
  let rendered: string[][] = [];
  let pages: RenderedPage[] = [];
  const disagreements: string[] = [];

  const element = (c: Case): TextElement => ({
    kind: 'text', id: 'body', role: 'body', box: { x: LEFT_IN, y: TOP_IN, w: c.w, h: 6.5 }, font: 'body',
    paragraphs: [{ text: c.text, level: 0, bullet: 'none', sizePt: c.size, bold: false, color: '000000', spaceAfterPt: 0 }],
    align: 'left', valign: 'top', lineHeight: 1.2, lines: 1,
  });

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'folio-linebreak-'));
    const ctx = drawContext(theme, '.', null, measurer);
    cases.forEach((c, i) => {
      if (i > 0) ctx.slide = ctx.pptx.addSlide();
      drawText(ctx, element(c));
    });
    // The control: typed spaces left in, which the gap check must find.
    ctx.slide = ctx.pptx.addSlide();
    drawText(ctx, element({ text: TYPED_SPACES, w: 9, size: 24 }));
    const { bytes } = await writeDeck(ctx);
    const file = join(work, 'corpus.pptx');
    (await import('node:fs')).writeFileSync(file, bytes);
    execFileSync('soffice', [`-env:UserInstallation=file://${join(work, 'profile')}`, '--headless', '--convert-to', 'pdf', '--outdir', work, file], { stdio: 'ignore', timeout: 240_000 });
    const pdf = join(work, 'corpus.pdf');
    if (!existsSync(pdf)) throw new Error(`soffice did not produce ${pdf}`);
    rendered = parseLines(execFileSync('pdftotext', ['-bbox', '-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' }));
    pages = await readPdfWords(new Uint8Array(readFileSync(pdf)), { w: 13.333, h: 7.5 });
  }, 300_000);

  afterAll(() => {
    console.info(`line-breaking corpus: ${cases.length} paragraphs, ${disagreements.length} lines where the PDF differs from the plan${disagreements.length ? `:\n${disagreements.join('\n')}` : ''}`);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('draws every paragraph as the lines planned, with no orphan and no split unit', () => {
    expect(rendered).toHaveLength(cases.length + 1);
    cases.forEach((c, i) => {
      const planned = paragraphLines(measurer, theme, element(c).paragraphs[0], 'body', c.w);
      const theirs = rendered[i] ?? [];
      const where = `${c.size} pt, ${c.w} in: plan ${planned.join(' / ')} | PDF ${theirs.join(' / ')}`;
      const n = Math.max(planned.length, theirs.length);
      for (let k = 0; k < n; k++) if (squash(planned[k] ?? '') !== squash(theirs[k] ?? '')) disagreements.push(where);
      expect(squash(theirs.join('')), where).toBe(squash(c.text));
      if (theirs.length > 1) expect(orphan(theirs[theirs.length - 1] ?? ''), where).toBe(false);
      if (theirs.length > 1) expect(loneNumber(squash(theirs[theirs.length - 1] ?? '')), where).toBe(false);
      for (let k = 0; k < theirs.length - 1; k++) {
        const joint = `${squash(theirs[k] ?? '')}|${squash(theirs[k + 1] ?? '')}`;
        for (const u of UNITS) for (let cut = 1; cut < u.length; cut++) expect(joint.includes(`${u.slice(0, cut)}|${u.slice(cut)}`), `${u} split: ${where}`).toBe(false);
      }
    });
    expect(disagreements).toEqual([]);
  });

  it('sets one gap between Chinese and Latin text, LibreOffice\'s own, and finds a typed space beside it', () => {
    expect(pages).toHaveLength(cases.length + 1);
    const typeset = pages.slice(0, cases.length);
    expect(typeset.flatMap((p, i) => (p.doubleGaps ?? []).map((g) => `${cases[i]?.text ?? ''}: "${g.before} ${g.after}" ${g.em.toFixed(2)} em`))).toEqual([]);
    const control = pages[cases.length]?.doubleGaps ?? [];
    expect(control.map((g) => `${g.before}|${g.after}`)).toEqual(['于|T', 'r|的', '过|3', '0|万']);
    for (const g of control) expect(g.em).toBeGreaterThan(0.4);
  });
});
