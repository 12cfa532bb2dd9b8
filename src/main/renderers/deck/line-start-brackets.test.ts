import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PlanParagraph, type TextElement } from '../../../shared/specs/deck-plan';
import { BUILTIN_THEMES } from '../../../shared/specs/themes';
import { convertToPdf } from '../document/testing/soffice-pdf';
import { sofficePath } from '../soffice';
import { createTextMeasurer } from '../typesetting/fonts';
import { blocks, drawContext, partText, writeDeck } from './draw/test-support';
import { drawText } from './draw/text';
import { renderDeckFromFile, type RenderDeckResult } from './index';
import { trimLineStartBrackets } from './line-start-brackets';
import { drawnLines } from './plan/written-lines';
import { dedupeParagraphProps } from './post-process';
import { type PlacedRun, readPdfWords } from './verify/pdf-words';

const theme = BUILTIN_THEMES[0];
const EMU_PER_PT = 12_700;
const box = { x: 1, y: 1, w: 8, h: 3 };

function paragraph(text: string, lines: string[] | undefined, bullet: PlanParagraph['bullet'] = 'none'): PlanParagraph {
  return { text, level: 0, bullet, sizePt: 24, bold: false, color: '000000', spaceAfterPt: 10, ...(lines ? { lines } : {}) };
}

async function slideXml(paragraphs: PlanParagraph[]): Promise<string> {
  const ctx = drawContext(theme);
  const el: TextElement = { kind: 'text', id: 'body', role: 'body', box, font: 'body', paragraphs, align: 'left', valign: 'top', lineHeight: 1.25, lines: 3 };
  drawText(ctx, el);
  const { zip } = await writeDeck(ctx);
  return trimLineStartBrackets(dedupeParagraphProps(await partText(zip, 'ppt/slides/slide1.xml')));
}

/** The text box's left edge and width, EMU. */
const frame = (xml: string): [number, number] => {
  const shape = blocks(xml, 'p:sp')[0] ?? '';
  return [Number(/<a:off x="(-?\d+)"/u.exec(shape)?.[1]), Number(/<a:ext cx="(\d+)"/u.exec(shape)?.[1])];
};
const attr = (xml: string, name: string): number[] => Array.from(xml.matchAll(new RegExp(`<a:pPr[^>]*\\s${name}="(-?\\d+)"`, 'gu')), (m) => Number(m[1]));

describe('a full-width opening bracket at a line start (the .pptx)', () => {
  it('starts half an em left of the other lines: the box widens to the left, every margin grows by as much', async () => {
    const xml = await slideXml([paragraph('（P95 延迟）在高峰期升高', undefined), paragraph('延迟在高峰期升高', undefined)]);
    const half = 12 * EMU_PER_PT;
    expect(frame(xml)).toEqual([box.x * 914_400 - half, box.w * 914_400 + half]);
    expect(attr(xml, 'marL')).toEqual([half, half]);
    expect(attr(xml, 'indent')).toEqual([-half, 0]);
  });

  it('makes a written line that starts with a bracket the first line of a paragraph of its own, spacing kept', async () => {
    const xml = await slideXml([paragraph('检索阶段的延迟几乎不变，重排阶段线性增长（见下页图表）与其后的文字', ['检索阶段的延迟几乎不变，重排阶段线性增长', '（见下页图表）与其后的文字'])]);
    const paragraphs = blocks(xml, 'a:p');
    expect(paragraphs).toHaveLength(2);
    expect(paragraphs[1]).toContain('（见下页图表）');
    expect(attr(xml, 'indent')).toEqual([0, -12 * EMU_PER_PT]);
    // No space between the two: the paragraph's own space comes after its last line only.
    expect(paragraphs[0]).not.toContain('<a:spcAft>');
    expect(paragraphs[1]).toContain('<a:spcAft><a:spcPts val="1000"/></a:spcAft>');
    for (const p of paragraphs) expect(p).toContain('<a:lnSpc><a:spcPts val="3000"/></a:lnSpc>');
  });

  it('keeps a bullet where it was and starts the bracket half an em nearer to it; the lines after start where they did', async () => {
    const xml = await slideXml([paragraph('（P95 延迟）在高峰期从 120 ms 升到 310 ms主要来自重排', ['（P95 延迟）在高峰期从 120 ms 升到 310 ms', '主要来自重排'], 'disc')]);
    const [first, second] = blocks(xml, 'a:p');
    const indentPt = Math.round(24 * 0.9);
    expect(attr(first ?? '', 'marL')[0] + attr(first ?? '', 'indent')[0]).toBe(0);
    expect(attr(first ?? '', 'marL')).toEqual([(indentPt - 12) * EMU_PER_PT]);
    expect(first).toContain('<a:buChar');
    expect(attr(second ?? '', 'marL')).toEqual([indentPt * EMU_PER_PT]);
    expect(second).toContain('<a:buNone/>');
    expect(frame(xml)).toEqual([box.x * 914_400, box.w * 914_400]);
  });

  it('leaves text without a bracket at a line start, and centred text, as it was', async () => {
    const ctx = drawContext(theme);
    drawText(ctx, { kind: 'text', id: 'c', role: 'body', box, font: 'body', paragraphs: [paragraph('（居中）的文字', undefined)], align: 'center', valign: 'top', lineHeight: 1.25, lines: 1 });
    drawText(ctx, { kind: 'text', id: 'b', role: 'body', box, font: 'body', paragraphs: [paragraph('中间的（括号）不动', undefined)], align: 'left', valign: 'top', lineHeight: 1.25, lines: 1 });
    const { zip } = await writeDeck(ctx);
    const xml = dedupeParagraphProps(await partText(zip, 'ppt/slides/slide1.xml'));
    expect(trimLineStartBrackets(xml)).toBe(xml);
  });
});

const hasSoffice = sofficePath() !== null;
if (!hasSoffice) console.warn('soffice not installed (apt-get install libreoffice-impress): skipping the rendered line-start brackets');

/** A deck whose title, first bullet, a wrapped line and a quote start with a bracket. */
const SPEC = {
  title: '括号在行首',
  theme: 'academic',
  language: 'zh-CN',
  slides: [
    {
      layout: 'bullets',
      title: '（P95 延迟）加入 reranker 后从 120 ms 升到 310 ms',
      bullets: ['（P95 延迟）在高峰期从 120 ms 升到 310 ms，主要来自 reranker', '检索阶段的延迟几乎不变，重排阶段的延迟随候选文档数量线性增长（见下页图表）', '延迟在高峰期升高'],
    },
    { layout: 'quote', quote: '（引自某位评审）我们关心的不是平均延迟，而是最慢的那百分之五的请求。', by: '评审意见' },
  ],
};

describe.skipIf(!hasSoffice)('a full-width opening bracket at a line start, as LibreOffice draws it', () => {
  let dir: string;
  let deck: RenderDeckResult;
  let runs: PlacedRun[][];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'deck-brackets-'));
    writeFileSync(join(dir, 'brackets.json'), JSON.stringify(SPEC));
    deck = await renderDeckFromFile(join(dir, 'brackets.json'), { baseDir: dir, outDir: dir, fileName: 'brackets.pptx' });
    const [pdf] = convertToPdf(dir, [deck.path], 120_000);
    runs = (await readPdfWords(new Uint8Array(readFileSync(pdf ?? '')), deck.plan.size)).map((p) => p.runs ?? []);
  }, 180_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('sets the bracket half width: its glyph starts half an em left of where the lines without one start', () => {
    const lineStarts = (page: PlacedRun[], inside: { x: number; w: number }): { text: string; x: number; size: number }[] => {
      const lines = new Map<number, PlacedRun[]>();
      for (const r of page) {
        if (r.str.trim() === '' || r.x < inside.x - 0.5 || r.x > inside.x + inside.w) continue;
        const key = Math.round(r.baseline * 20);
        lines.set(key, [...(lines.get(key) ?? []), r]);
      }
      return [...lines.values()].map((l) => l.sort((a, b) => a.x - b.x)[0]).filter((r) => !/^[•–]/u.test(r.str)).map((r) => ({ text: r.str, x: r.x, size: r.size }));
    };
    const checked: string[] = [];
    deck.plan.slides.forEach((slide, n) => {
      for (const el of slide.elements) {
        if (el.kind !== 'text' || (el.role !== 'title' && el.role !== 'body' && el.role !== 'quote')) continue;
        const starts = lineStarts(runs[n] ?? [], el.box).filter((s) => Math.abs(s.size * 72 - (el.paragraphs[0]?.sizePt ?? 0)) < 1);
        const plain = starts.filter((s) => !s.text.startsWith('（'));
        for (const s of starts.filter((x) => x.text.startsWith('（'))) {
          // The nearest line without a bracket at the same indentation: the body's bullets' text, the quote's second line, the title's box.
          const reference = plain.length > 0 ? Math.min(...plain.map((p) => p.x)) : el.box.x;
          expect(s.x - reference, `slide ${n + 1} ${el.id}: ${s.text}`).toBeCloseTo(-s.size / 2, 1);
          checked.push(`${el.id}: ${s.text}`);
        }
      }
    });
    expect(checked.length).toBeGreaterThanOrEqual(4);
  });
});

describe.skipIf(!hasSoffice)('a written line that fits only with the half em its bracket gives back, as LibreOffice draws it', () => {
  const measurer = createTextMeasurer();
  const business = BUILTIN_THEMES.find((t) => t.name === 'business') ?? theme;
  const text = '本地优先的工具（资料留在电脑）';
  const style = { fonts: { latin: business.fonts.latinBody, cjk: business.fonts.cjkBody }, sizePt: 24 };
  /** A box a third of an em narrower than the bracketed line: it fits only when the line starts half an em sooner. */
  const boxW = (measurer.widthPt('（资料留在电脑）', style) - 8) / 72;
  let planned: string | string[];
  let drawn: string[];

  beforeAll(async () => {
    const ctx = { ...drawContext(business, '.', null, measurer) };
    const p = paragraph(text, undefined);
    planned = drawnLines({ measurer, theme: business }, p, 'body', boxW, 'left');
    const el: TextElement = { kind: 'text', id: 'body', role: 'body', box: { ...box, w: boxW }, font: 'body', paragraphs: [{ ...p, ...(Array.isArray(planned) ? { lines: planned } : {}) }], align: 'left', valign: 'top', lineHeight: 1.25, lines: 2 };
    drawText(ctx, el);
    const { zip } = await writeDeck(ctx);
    zip.file('ppt/slides/slide1.xml', trimLineStartBrackets(dedupeParagraphProps(await partText(zip, 'ppt/slides/slide1.xml'))));
    const dir = mkdtempSync(join(tmpdir(), 'deck-bracket-room-'));
    const file = join(dir, 'room.pptx');
    writeFileSync(file, await zip.generateAsync({ type: 'nodebuffer' }));
    const [pdf] = convertToPdf(dir, [file], 120_000);
    const html = spawnSync('pdftotext', ['-bbox', '-enc', 'UTF-8', pdf ?? '', '-'], { encoding: 'utf8' }).stdout;
    const words = [...html.matchAll(/<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">([^<]*)<\/word>/gu)].map((m) => ({ y: Math.round(Number(m[1])), text: m[2] ?? '' }));
    const lines = new Map<number, string>();
    for (const w of words) lines.set(w.y, (lines.get(w.y) ?? '') + w.text);
    drawn = [...lines].sort((a, b) => a[0] - b[0]).map(([, t]) => t);
    rmSync(dir, { recursive: true, force: true });
  }, 180_000);

  it('is planned on two lines, and LibreOffice draws those two lines', () => {
    expect(planned).toEqual(['本地优先的工具', '（资料留在电脑）']);
    expect(drawn).toEqual(['本地优先的工具', '（资料留在电脑）']);
  });
});
