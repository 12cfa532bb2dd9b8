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
import { renderDeckFromFile, type RenderDeckResult } from './index';
import { checkRenderedPdf } from './rendered-check';
import { readPdfWords } from './verify/pdf-words';

const FIXTURES = join(__dirname, 'fixtures');
const SPECS = ['stress-deck', 'edge-deck'] as const;
const RENDERED_PROBLEMS: readonly QualityIssueKind[] = ['off_slide', 'outside_box', 'in_footer', 'overlap', 'title_lines'];
const hasSoffice = sofficePath() !== null;
if (!hasSoffice) console.warn('soffice not installed (apt-get install libreoffice-impress): skipping the rendered stress and edge decks');

interface Rendered {
  deck: RenderDeckResult;
  report: QualityReport;
  /** Each page's words as LibreOffice drew them, joined by spaces. */
  pages: string[];
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
  const rendered = new Map<(typeof SPECS)[number], Rendered>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'deck-fixtures-'));
    const decks: RenderDeckResult[] = [];
    for (const name of SPECS) {
      copyFileSync(join(FIXTURES, `${name}.json`), join(dir, `${name}.json`));
      decks.push(await renderDeckFromFile(join(dir, `${name}.json`), { baseDir: dir, outDir: dir, fileName: `${name}.pptx` }));
    }
    const pdfs = convertToPdf(dir, decks.map((d) => d.path), 240_000);
    for (const [i, name] of SPECS.entries()) {
      const deck = decks[i];
      if (!deck) continue;
      const pdf = new Uint8Array(readFileSync(pdfs[i] ?? ''));
      const { report, verification } = await checkRenderedPdf(deck, pdf);
      expect(verification.mode, verification.reason).toBe('rendered');
      const pages = (await readPdfWords(pdf, deck.plan.size)).map((p) => p.words.map((w) => w.text).join(' '));
      rendered.set(name, { deck, report, pages });
    }
  }, 300_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const get = (name: (typeof SPECS)[number]): Rendered => {
    const r = rendered.get(name);
    if (!r) throw new Error(`${name} was not rendered`);
    return r;
  };

  it.each(SPECS)('%s: one page per planned slide, none with a word off the slide, outside its box, in the footer band or overlapping', (name) => {
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
});
