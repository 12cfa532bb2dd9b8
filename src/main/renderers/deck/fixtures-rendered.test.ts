// The stress and edge deck specs (fixtures/), rendered as `folio render` renders them and converted
// by LibreOffice once each: what the PDF shows must be what the report says. No "…" on a slide
// unless the report says that slide's text was cut; no continuation slide holding a single point,
// row or event; the all-zero chart of the edge deck drawn as a placeholder, and every other slide
// drawn with its words.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type QualityIssueKind, type QualityReport } from '../../../shared/specs/deck';
import { type PlannedSlide, type TextElement } from '../../../shared/specs/deck-plan';
import { convertToPdf } from '../document/testing/soffice-pdf';
import { sofficePath } from '../soffice';
import { drawnLines } from './plan/written-lines';
import { createTextMeasurer, NO_LINE_START } from '../typesetting/fonts';
import { renderDeckFromFile, type RenderDeckResult } from './index';
import { checkRenderedPdf } from './rendered-check';
import { type PlacedRun, readPdfWords, type RenderedWord } from './verify/pdf-words';

const FIXTURES = join(__dirname, 'fixtures');
const SPECS = ['stress-deck', 'edge-deck'] as const;
/** Decks a Chinese user's agent writes from real sources: a 组会汇报, a 开题报告 and a mixed technical talk. */
const WALK = ['zh-group-meeting', 'zh-proposal-defense', 'zh-en-tech-talk'] as const;
const ALL = [...SPECS, ...WALK] as const;
type DeckName = (typeof ALL)[number];
const RENDERED_PROBLEMS: readonly QualityIssueKind[] = ['off_slide', 'outside_box', 'in_footer', 'overlap', 'title_lines'];
const hasSoffice = sofficePath() !== null;
if (!hasSoffice) console.warn('soffice not installed (apt-get install libreoffice-impress): skipping the rendered stress and edge decks');

interface Rendered {
  deck: RenderDeckResult;
  report: QualityReport;
  /** Each page's words as LibreOffice drew them, joined by spaces. */
  pages: string[];
  words: RenderedWord[][];
  /** Each page's text runs, punctuation included. */
  runs: PlacedRun[][];
}

/** What a split spreads over its slides: top-level bullets, table rows, timeline events. */
function itemsOn(slide: PlannedSlide): number {
  const table = slide.elements.find((e) => e.kind === 'table');
  if (table?.kind === 'table') return table.rows.length;
  const events = slide.elements.filter((e) => /^event-\d+-title$/.test(e.id)).length;
  if (events > 0) return events;
  return slide.elements.filter((e): e is TextElement => e.kind === 'text' && e.role === 'body').flatMap((e) => e.paragraphs.filter((p) => p.level === 0)).length;
}

describe.skipIf(!hasSoffice)('the stress and edge decks, as LibreOffice renders them', () => {
  let dir: string;
  const rendered = new Map<DeckName, Rendered>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'deck-fixtures-'));
    const decks: RenderDeckResult[] = [];
    for (const name of ALL) {
      copyFileSync(join(FIXTURES, `${name}.json`), join(dir, `${name}.json`));
      decks.push(await renderDeckFromFile(join(dir, `${name}.json`), { baseDir: dir, outDir: dir, fileName: `${name}.pptx` }));
    }
    const pdfs = convertToPdf(dir, decks.map((d) => d.path), 240_000);
    for (const [i, name] of ALL.entries()) {
      const deck = decks[i];
      if (!deck) continue;
      const pdf = new Uint8Array(readFileSync(pdfs[i] ?? ''));
      const { report, verification } = await checkRenderedPdf(deck, pdf);
      expect(verification.mode, verification.reason).toBe('rendered');
      const read = await readPdfWords(pdf, deck.plan.size);
      const words = read.map((p) => p.words);
      rendered.set(name, { deck, report, pages: words.map((w) => w.map((x) => x.text).join(' ')), words, runs: read.map((p) => p.runs ?? []) });
    }
  }, 300_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const get = (name: DeckName): Rendered => {
    const r = rendered.get(name);
    if (!r) throw new Error(`${name} was not rendered`);
    return r;
  };

  it.each(ALL)('%s: one page per planned slide, none with a word off the slide, outside its box, in the footer band or overlapping', (name) => {
    const { deck, report, pages } = get(name);
    expect(pages).toHaveLength(deck.plan.slides.length);
    const problems = report.slides.flatMap((s) => s.issues.filter((i) => RENDERED_PROBLEMS.includes(i.kind)).map((i) => `slides[${s.index}] ${i.kind}: ${i.message}`));
    expect(problems).toEqual([]);
  });

  it.each(SPECS)('%s: no "…" on a slide unless the report says its text was cut', (name) => {
    const { deck, report, pages } = get(name);
    const unreported = pages.flatMap((text, n) => {
      if (!text.includes('…')) return [];
      const source = deck.plan.slides[n]?.source_index ?? -1;
      const cut = report.slides[source]?.issues.some((i) => i.kind === 'dropped' && i.message.includes('"…"'));
      return cut ? [] : [`slide ${n + 1}: ${text.slice(0, 160)}`];
    });
    expect(unreported).toEqual([]);
    // Nothing in these two decks needs a cut any more: long timeline titles are set down the slide.
    expect(pages.filter((t) => t.includes('…'))).toEqual([]);
    expect(report.slides.flatMap((s) => s.issues.filter((i) => i.kind === 'dropped'))).toEqual([]);
  });

  it.each(SPECS)('%s: a split never leaves a continuation slide with a single item, and sets body text at 18 pt or more', (name) => {
    const { deck } = get(name);
    const bySource = new Map<number, PlannedSlide[]>();
    for (const s of deck.plan.slides) bySource.set(s.source_index, [...(bySource.get(s.source_index) ?? []), s]);
    const lonely = [...bySource.values()]
      .filter((parts) => parts.length > 1)
      .flatMap((parts) => parts.map((s) => ({ s, items: itemsOn(s) })).filter(({ items }) => items < 2).map(({ s }) => `spec slide ${s.source_index}, part ${s.part}`));
    expect(lonely).toEqual([]);
    const small = deck.plan.slides.flatMap((s) => s.elements.filter((e): e is TextElement => e.kind === 'text' && e.role === 'body').flatMap((e) => e.paragraphs.filter((p) => p.sizePt < 18).map((p) => p.text)));
    expect(small).toEqual([]);
    expect([...bySource.values()].some((parts) => parts.length > 1)).toBe(true);
  });

  it('edge: the all-zero pie is a placeholder slide in the report, and every other slide draws its words', () => {
    const { deck, report, pages } = get('edge-deck');
    const pie = deck.plan.slides.findIndex((s) => deck.spec.slides[s.source_index]?.layout === 'chart');
    expect(report.slides[deck.plan.slides[pie]?.source_index ?? -1]?.issues.map((i) => i.kind)).toContain('placeholder');
    const letters = (t: string): string => t.replace(/[^\p{L}\p{N}]/gu, '');
    expect(letters(pages[pie] ?? '')).toContain(letters('Chart not drawn: every value is 0'));
    deck.plan.slides.forEach((slide, n) => {
      const title = slide.elements.find((e): e is TextElement => e.kind === 'text' && (e.role === 'title' || e.role === 'quote'));
      const words = (title?.paragraphs[0]?.text ?? '').split(/\s+/).filter((w) => /^\p{L}{3,}$/u.test(w)).slice(0, 3);
      for (const w of words) expect(pages[n], `slide ${n + 1}`).toContain(w);
    });
    // The deck title's 🚀 prints blank: the cover's report says so (LibreOffice's PDF has no colour bitmaps).
    expect(report.slides[0]?.issues.some((i) => i.kind === 'emoji_font' && i.message.includes('🚀'))).toBe(true);
  });

  /** The rendered lines of a text element: its words by baseline, as [left, right] extents in inches. */
  const renderedLines = (words: readonly RenderedWord[], el: TextElement): [number, number][] => {
    const grow = 4 / 72;
    const inside = words.filter((w) => {
      const cx = w.x + w.w / 2;
      const cy = w.y + w.h / 2;
      return cx >= el.box.x - grow && cx <= el.box.x + el.box.w + grow && cy >= el.box.y - grow && cy <= el.box.y + el.box.h + grow;
    });
    const byLine = new Map<number, [number, number]>();
    for (const w of inside) {
      const key = [...byLine.keys()].find((b) => Math.abs(b - w.baseline) < w.size * 0.3) ?? w.baseline;
      const [l, r] = byLine.get(key) ?? [Infinity, -Infinity];
      byLine.set(key, [Math.min(l, w.x), Math.max(r, w.x + w.w)]);
    }
    return [...byLine.entries()].sort((a, b) => a[0] - b[0]).map(([, e]) => e);
  };

  it.each(WALK)('%s: every heading of two lines is balanced on the rendered slide, no word left alone on its last line', (name) => {
    const { deck, words } = get(name);
    let twoLine = 0;
    const ragged = deck.plan.slides.flatMap((slide, n) =>
      slide.elements
        .filter((e): e is TextElement => e.kind === 'text' && e.font === 'heading' && (e.role === 'title' || e.role === 'label'))
        .flatMap((el) => {
          const lines = renderedLines(words[n] ?? [], el);
          if (lines.length !== 2) return [];
          twoLine++;
          const [first, last] = lines.map(([l, r]) => r - l) as [number, number];
          return last >= first / 3 ? [] : [`slide ${n + 1} ${el.id}: ${el.paragraphs.map((p) => p.text).join(' ')} (${last.toFixed(2)} in after ${first.toFixed(2)} in)`];
        }),
    );
    expect(ragged).toEqual([]);
    if (name !== 'zh-group-meeting') expect(twoLine).toBeGreaterThan(0);
  });

  it.each(WALK)('%s: the lines written for Chinese text never split a number from its unit or a date, nor start with a closing mark', (name) => {
    const { deck } = get(name);
    const ctx = { measurer: createTextMeasurer(), theme: deck.theme };
    const bad: string[] = [];
    for (const [n, slide] of deck.plan.slides.entries()) {
      for (const el of slide.elements) {
        if (el.kind !== 'text') continue;
        for (const p of el.paragraphs) {
          const lines = drawnLines(ctx, p, el.font, el.box.w);
          if (!Array.isArray(lines)) continue;
          for (let k = 1; k < lines.length; k++) {
            const joint = `${lines[k - 1] ?? ''}|${lines[k] ?? ''}`;
            if (NO_LINE_START.has(Array.from(lines[k] ?? '')[0] ?? '') || /\d ?\|(?:毫米|小时|分钟|个|年|月|日|天|%|ms|元|万)/u.test(joint) || /年 ?\|\d{1,2} ?月/u.test(joint)) bad.push(`slide ${n + 1} ${el.id}: ${lines.join(' / ')}`);
          }
        }
      }
    }
    expect(bad).toEqual([]);
  });

  /** The line of `runs` that holds `needle`, as drawn: runs in order, a space where a gap of a tenth of an em or more parts them. */
  const drawnLine = (runs: readonly PlacedRun[], needle: string): string => {
    const at = runs.find((r) => r.str.includes(needle));
    if (!at) return '';
    const line = runs.filter((r) => Math.abs(r.baseline - at.baseline) < at.size * 0.3 && r.str.trim() !== '').sort((a, b) => a.x - b.x);
    return line.map((r, i) => {
      const prev = line[i - 1];
      return prev && r.x - (prev.x + prev.width) >= r.size * 0.1 ? ` ${r.str}` : r.str;
    }).join('');
  };

  it('zh-en-tech-talk: a chart title holding only Latin text in brackets is drawn without a gap inside them', () => {
    const { deck, runs } = get('zh-en-tech-talk');
    const page = deck.plan.slides.findIndex((s) => s.elements.some((e) => e.kind === 'chart'));
    const line = drawnLine(runs[page] ?? [], 'chunks');
    expect(line).toContain('文档数量');
    expect(line).toMatch(/[（(]chunks[）)]/u);
  });

  it('zh-en-tech-talk: code is drawn line for line as written, its indentation kept, nothing wrapped', () => {
    const { deck, words } = get('zh-en-tech-talk');
    const page = deck.plan.slides.findIndex((s) => s.elements.some((e) => e.kind === 'text' && e.font === 'code'));
    const el = deck.plan.slides[page]?.elements.find((e): e is TextElement => e.kind === 'text' && e.font === 'code');
    if (!el) throw new Error('no code on the tech talk');
    const lines = renderedLines(words[page] ?? [], el);
    expect(lines).toHaveLength(el.paragraphs.length);
    // Each line starts where its indentation says: four spaces are two em of a monospace face.
    const em = (el.paragraphs[0]?.sizePt ?? 0) / 72;
    const starts = lines.map(([left]) => left - (lines[0]?.[0] ?? 0));
    el.paragraphs.forEach((p, i) => {
      const indent = (p.text.length - p.text.trimStart().length) * 0.6 * em;
      expect(Math.abs((starts[i] ?? 0) - indent), `line ${i + 1}: ${p.text}`).toBeLessThan(em * 0.5);
    });
    for (const [, right] of lines) expect(right).toBeLessThanOrEqual(el.box.x + el.box.w + 0.02);
  });
});
