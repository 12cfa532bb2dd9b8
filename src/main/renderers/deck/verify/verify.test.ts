// The rendered-slide check against a deck whose problems are known (testing.ts): each broken slide
// must be flagged with exactly its problems and the good slide with none. The matching and the
// checks are also tried on hand-placed words, which needs no LibreOffice.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempRoot, removeTemp, writeFiles } from '../../../tools/testing';
import { SOFFICE_ENV, sofficePath } from '../../soffice';
import { checkRenderedSlide, lineCount } from './checks';
import { mergeVerification, verificationNote, verifyRenderedDeck } from './index';
import { matchWords } from './match';
import { findDoubleGaps, type RenderedWord } from './pdf-words';
import { EXPECTED, FOOTER_TOP, SIZE, writeTestDeck } from './testing';
import { tokenize } from './tokens';
import { type PlannedBox, type PlannedSlide, type VerifyInput, type VerifyResult } from './types';

const savedOverride = process.env[SOFFICE_ENV];
function restoreOverride(): void {
  if (savedOverride === undefined) delete process.env[SOFFICE_ENV];
  else process.env[SOFFICE_ENV] = savedOverride;
}
restoreOverride();
const hasSoffice = sofficePath() !== null;
if (!hasSoffice) console.warn('soffice not installed (apt-get install libreoffice-impress): skipping the rendered-slide check against LibreOffice');

const kindsBySlide = (result: VerifyResult): Record<number, string[]> =>
  Object.fromEntries(result.slides.map((s) => [s.number, [...new Set(s.issues.map((i) => i.kind))].sort()]));

describe('mergeVerification', () => {
  it('files rendered findings under their spec slide, keeps the output numbers, recounts and marks the report rendered', () => {
    const report = {
      slides: [
        { index: 0, output_slides: [1], issues: [] },
        { index: 1, output_slides: [2, 3], issues: [{ kind: 'split' as const, message: 'continued on 1 more slide' }] },
        { index: 2, output_slides: [4], issues: [] },
      ],
      summary: { slides_in: 3, slides_out: 4, issues: 1 },
    };
    const result: VerifyResult = {
      mode: 'rendered',
      ms: 1,
      slides: [
        { number: 1, sourceIndex: 0, issues: [] },
        { number: 2, sourceIndex: 1, issues: [{ kind: 'in_footer', message: 'slide 2: "Total" in the footer band' }] },
        { number: 3, sourceIndex: 1, issues: [{ kind: 'off_slide', message: 'slide 3: "x" off the slide' }] },
        { number: 4, sourceIndex: 2, issues: [] },
        // A slide the report does not know (plan and report disagree) is dropped, not invented.
        { number: 5, sourceIndex: 9, issues: [{ kind: 'overlap', message: 'stray' }] },
      ],
    };
    const merged = mergeVerification(report, result);
    expect(merged.slides.map((s) => [s.index, s.output_slides, s.issues.map((i) => i.kind)])).toEqual([
      [0, [1], []],
      [1, [2, 3], ['split', 'in_footer', 'off_slide']],
      [2, [4], []],
    ]);
    expect(merged.summary).toEqual({ slides_in: 3, slides_out: 4, issues: 3 });
    expect(merged.checked).toEqual({ mode: 'rendered' });
    expect(verificationNote(merged.checked ?? { mode: 'estimated' })).toBe('verified against the rendered slides');
    expect(report.slides[1]?.issues).toHaveLength(1);
  });
});

describe('verifyRenderedDeck', () => {
  let root: string;
  let input: VerifyInput;

  beforeAll(async () => {
    root = makeTempRoot('folio-verify-test-');
    input = await writeTestDeck(join(root, 'broken.pptx'));
  });
  afterEach(restoreOverride);
  afterAll(() => removeTemp(root));

  it.skipIf(!hasSoffice)(
    'flags exactly the problems each deliberately broken slide has, and nothing on the good one',
    async () => {
      const result = await verifyRenderedDeck(input);
      expect(result.mode).toBe('rendered');
      expect(result.reason).toBeUndefined();
      expect(verificationNote(result)).toBe('verified against the rendered slides');
      expect(kindsBySlide(result)).toEqual(EXPECTED);

      const issues = (n: number) => result.slides.find((s) => s.number === n)?.issues ?? [];
      // Numbered as in the file, with the spec slide it came from; one issue per kind and box.
      for (const slide of result.slides) {
        for (const issue of slide.issues) expect(issue.message.startsWith(`slide ${slide.number} (spec slides[${slide.sourceIndex}]): `)).toBe(true);
      }
      const overflow = issues(2).map((i) => i.message);
      expect(overflow).toHaveLength(3);
      // 40 lines of 8 words in a box of 2.5 in: the box holds ~7 lines, the slide ~12; the rest is not drawn.
      const lost = Number(/loses (\d+) words off the slide/u.exec(overflow.join('\n'))?.[1]);
      expect(lost).toBeGreaterThan(150);
      expect(lost).toBeLessThan(320);
      expect(overflow.join('\n')).toMatch(/below the footer line at 5\.0 in/u);
      expect(overflow.join('\n')).toMatch(/outside its box .*down to 5\.0 in \(the box ends at 3\.8 in\)/u);
      expect(issues(3)[0]?.message).toMatch(/caption "source" has 5 words below the footer line/u);
      expect(issues(4)[0]?.message).toMatch(/the text of the body and label "stamp" overlap/u);
      expect(issues(5)[0]?.message).toMatch(/the title renders on 3 lines/u);
      expect(issues(7)[0]?.message).toMatch(/160×120 px\) is shown at 5\.0×3\.8 in, enlarged 3\.0×/u);
      expect(result.ms).toBeGreaterThan(0);
    },
    300_000,
  );

  it('says the report is estimated when LibreOffice is not installed, and still reports what the plan shows', async () => {
    process.env[SOFFICE_ENV] = join(root, 'no-such-soffice');
    const result = await verifyRenderedDeck(input);
    expect(result.mode).toBe('estimated');
    expect(result.reason).toBe('LibreOffice not installed');
    expect(verificationNote(result)).toBe('estimated (LibreOffice not installed)');
    expect(kindsBySlide(result)).toEqual({ 1: [], 2: [], 3: [], 4: [], 5: [], 6: [], 7: ['upscaled_image'] });

    // Findings join the report entry of the spec slide they came from.
    const report = {
      slides: [
        { index: 5, output_slides: [6], issues: [{ kind: 'near_empty' as const, message: 'only 2 word(s) of content' }] },
        { index: 6, output_slides: [7], issues: [] },
      ],
      summary: { slides_in: 2, slides_out: 2, issues: 1 },
    };
    const merged = mergeVerification(report, result);
    expect(merged.slides.map((s) => s.issues.map((i) => i.kind))).toEqual([['near_empty'], ['upscaled_image']]);
    expect(merged.summary).toEqual({ slides_in: 2, slides_out: 2, issues: 2 });
    expect(merged.checked).toEqual({ mode: 'estimated', reason: 'LibreOffice not installed' });
    expect(report.slides[1]?.issues).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')('says why when LibreOffice fails, instead of throwing', async () => {
    const fake = join(root, 'fake-soffice-silent.sh');
    writeFiles(root, { 'fake-soffice-silent.sh': '#!/bin/sh\nexit 0\n' });
    chmodSync(fake, 0o755);
    process.env[SOFFICE_ENV] = fake;
    const result = await verifyRenderedDeck(input);
    expect(result.mode).toBe('estimated');
    expect(result.reason).toBe('LibreOffice could not convert broken.pptx (no PDF was produced).');
  });

  it.skipIf(process.platform === 'win32')('rejects as cancelled when its signal aborts mid-conversion', async () => {
    const fake = join(root, 'fake-soffice-hang.sh');
    writeFiles(root, { 'fake-soffice-hang.sh': '#!/bin/sh\nsleep 30\n' });
    chmodSync(fake, 0o755);
    process.env[SOFFICE_ENV] = fake;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await expect(verifyRenderedDeck(input, { signal: controller.signal })).rejects.toMatchObject({ code: 'cancelled' });
  }, 20_000);
});

// Hand-placed words: a run of text at a baseline, words laid out left to right.
let runNo = 0;
function line(text: string, x: number, baseline: number, sizePt = 20): RenderedWord[] {
  const size = sizePt / 72;
  const run = (runNo += 1);
  let at = x;
  return tokenize(text).map((t) => {
    const w = [...t.text].length * size * 0.5;
    const word = { key: t.key, text: t.text, x: at, y: baseline - 0.8 * size, w, h: size, baseline, size, run };
    at += w + size * 0.25;
    return word;
  });
}

const frame = { size: SIZE, footerTop: FOOTER_TOP };
const titleBox: PlannedBox = { id: 'title', role: 'title', x: 0.5, y: 0.3, w: 9, h: 0.8, text: 'Results' };
const bodyBox: PlannedBox = { id: 'body', role: 'body', x: 0.5, y: 1.3, w: 9, h: 3.5, text: 'Recall improved on every benchmark' };
const slide = (boxes: PlannedBox[], extra: Partial<PlannedSlide> = {}): PlannedSlide => ({ number: 3, sourceIndex: 2, boxes, ...extra });

describe('matching words to boxes', () => {
  it('splits CJK into characters and drops punctuation, so runs split anywhere still match', () => {
    expect(tokenize('LLM 擅长摘要，但 (hallucination) 3.5%').map((t) => t.key)).toEqual(['llm', '擅', '长', '摘', '要', '但', 'hallucination', '3', '5']);
  });

  it('keeps a word LibreOffice broke across lines, and puts auto-numbers with the box they are drawn in', () => {
    const words = [...line('Results', 0.6, 0.9), ...line('1 Recal', 0.6, 1.7), ...line('l improved on every benchmark', 0.6, 2.0)];
    const match = matchWords([titleBox, bodyBox], words);
    const body = match.boxes.find((b) => b.box.id === 'body');
    expect(body?.missing).toEqual([]);
    expect(body?.words.map((w) => w.text)).toEqual(['1', 'Recal', 'l', 'improved', 'on', 'every', 'benchmark']);
    expect(match.boxes.find((b) => b.box.id === 'title')?.words.map((w) => w.text)).toEqual(['Results']);
  });

  it('reports the words of a box that are nowhere on the page as off the slide, in text order', () => {
    const issues = checkRenderedSlide(slide([titleBox, bodyBox]), [...line('Results', 0.6, 0.9), ...line('Recall improved on', 0.6, 1.7)], frame);
    expect(issues).toEqual([{ kind: 'off_slide', message: 'slide 3 (spec slides[2]): the body loses 2 words off the slide, from "every benchmark": they are not shown; shorten the text or split the slide' }]);
  });

  it('finds a typed space beside LibreOffice\'s CJK–Latin gap from the runs pdfjs reads, and reports it once per slide', () => {
    // Runs as pdfjs read them from LibreOffice's PDF of "LLM 擅长…（hallucination）" at 28 pt (points).
    const run = (str: string, e: number, width: number, f = 305.09) => ({ str, transform: [28, 0, 0, 28, e, f], width });
    const pageFrame = { left: 0, top: 540, sx: 1 / 72, sy: 1 / 72 };
    const runs = [run('LLM', 68.2, 54.47), run(' ', 122.67, 14.52), run('擅长摘要，但容易产生幻觉（', 137.2, 363.52), run(' ', 500.71, 6.69), run('hallucination', 507.4, 155.74), run('）', 670.11, 28)];
    const gaps = findDoubleGaps(runs, pageFrame);
    // 0.52 em after "LLM" is a space plus the gap; 0.24 em before "hallucination" is LibreOffice's gap alone.
    expect(gaps.map((g) => [g.before, g.after, Number(g.em.toFixed(2))])).toEqual([['M', '擅', 0.52]]);
    // A typed space kept inside a run counts too; the next line, or a column 2 in away, is not a gap.
    expect(findDoubleGaps([run('超过 ', 68, 80), run('300', 154, 46.7)], pageFrame)).toHaveLength(1);
    expect(findDoubleGaps([run('超过', 68, 56), run('300', 68, 46.7, 270)], pageFrame)).toEqual([]);
    expect(findDoubleGaps([run('超过', 68, 56), run('300', 268, 46.7)], pageFrame)).toEqual([]);
    const spacing = (boxes: PlannedBox[], found: typeof gaps) => checkRenderedSlide(slide(boxes), line('Results', 0.6, 0.9), frame, found).filter((i) => i.kind === 'spacing');
    expect(spacing([titleBox, bodyBox], [...gaps, ...gaps])).toEqual([{ kind: 'spacing', message: expect.stringContaining('2 gaps between Chinese and Latin text are a typed space plus') as string }]);
  });

  it('counts a gap only inside one box: not between two boxes side by side, nor across a table\'s column line', () => {
    const run = (str: string, e: number, width: number) => ({ str, transform: [28, 0, 0, 28, e, 305.09], width });
    // "LLM" ends at 1.70 in, "擅长" starts at 1.91 in: 0.52 em apart.
    const gaps = findDoubleGaps([run('LLM', 68.2, 54.47), run('擅长', 137.2, 56)], { left: 0, top: 540, sx: 1 / 72, sy: 1 / 72 });
    expect(gaps).toHaveLength(1);
    const spacing = (boxes: PlannedBox[]) => checkRenderedSlide(slide(boxes), line('Results', 0.6, 0.9), frame, gaps).filter((i) => i.kind === 'spacing');
    expect(spacing([titleBox, bodyBox])).toHaveLength(1);
    // An agenda's number and its item.
    const number: PlannedBox = { id: 'agenda-num-1', role: 'label', x: 0.5, y: 3, w: 1.22, h: 0.5, text: 'LLM' };
    const item: PlannedBox = { id: 'agenda-item-1', role: 'body', x: 1.8, y: 3, w: 6, h: 0.5, text: '擅长' };
    expect(spacing([titleBox, number, item])).toEqual([]);
    // Two cells of a table.
    expect(spacing([titleBox, { id: 'table', role: 'table', x: 0.5, y: 1.3, w: 9, h: 3.5, text: 'LLM\n擅长', cuts: [1.8] }])).toEqual([]);
  });

  it('reports text the layout did not place when it sits in the footer band', () => {
    const issues = checkRenderedSlide(slide([titleBox]), [...line('Results', 0.6, 0.9), ...line('Draft', 4, 5.3)], frame);
    expect(issues.map((i) => i.message)).toEqual(['slide 3 (spec slides[2]): unplanned text has 1 word below the footer line at 5.0 in ("Draft"); shorten the text or split the slide']);
  });

  it("leaves alone text a template's master draws on every slide", () => {
    const words = [...line('Results', 0.6, 0.9), ...line('Draft', 4, 5.3)];
    const draft = words.find((w) => w.key === 'draft');
    if (!draft) throw new Error('no Draft word');
    const at = { x: draft.x - 0.05, y: draft.y - 0.05, w: draft.w + 0.1, h: draft.h + 0.1 };
    expect(checkRenderedSlide(slide([titleBox]), words, { ...frame, fixedText: [{ keys: new Set(['draft']), rect: at }] })).toEqual([]);
    // Only that text, and only where the template draws it: anything else unplanned is still reported.
    expect(checkRenderedSlide(slide([titleBox]), words, { ...frame, fixedText: [{ keys: new Set(['final']), rect: at }] })).toHaveLength(1);
    expect(checkRenderedSlide(slide([titleBox]), words, { ...frame, fixedText: [{ keys: new Set(['draft']), rect: { ...at, x: at.x + 3 } }] })).toHaveLength(1);
  });

  it('flags text running over a chart it was not placed on, but not a caption placed on a picture', () => {
    const chart: PlannedBox = { id: 'chart', role: 'chart', x: 5, y: 1.3, w: 4.5, h: 3.5 };
    const left: PlannedBox = { id: 'body', role: 'body', x: 0.5, y: 1.3, w: 4.3, h: 3.5, text: 'A very long line that does not wrap at all here' };
    const over = checkRenderedSlide(slide([left, chart]), line('A very long line that does not wrap at all here', 0.6, 1.7), frame);
    expect(over.map((i) => i.kind)).toEqual(['outside_box', 'overlap']);
    expect(over[1]?.message).toMatch(/the text of the body runs over the chart around \(5\.0 in, 1\.5 in\)/u);

    const photo: PlannedBox = { id: 'photo', role: 'image', x: 0, y: 0, w: 10, h: 5.625 };
    const caption: PlannedBox = { id: 'caption', role: 'caption', x: 0.5, y: 4.2, w: 9, h: 0.6, text: 'The harbour at dawn' };
    expect(checkRenderedSlide(slide([photo, caption]), line('The harbour at dawn', 0.6, 4.6), frame)).toEqual([]);
  });

  it("keeps a chart label with the chart when a distant box's text explains only part of it", () => {
    const chart: PlannedBox = { id: 'chart', role: 'chart', x: 5, y: 1.3, w: 4.5, h: 3.5 };
    const pageNumber: PlannedBox = { id: 'slide-number', role: 'number', x: 9.2, y: 5.2, w: 0.5, h: 0.3, text: '6' };
    const words = [...line('Results', 0.6, 0.9), ...line('74.6%', 8, 2.3, 12), ...line('6', 9.3, 5.45, 10)];
    const match = matchWords([titleBox, chart, pageNumber], words);
    expect(match.boxes.find((b) => b.box.id === 'slide-number')?.words.map((w) => w.text)).toEqual(['6']);
    expect(match.boxes.find((b) => b.box.id === 'chart')?.words.map((w) => w.text)).toEqual(['74', '6']);
    expect(checkRenderedSlide(slide([titleBox, chart, pageNumber]), words, frame)).toEqual([]);
  });

  it("keeps an axis tick with the chart when it is the page number's whole text", () => {
    const chart: PlannedBox = { id: 'chart', role: 'chart', x: 0.5, y: 1.3, w: 9, h: 3.5, text: 'Run 1\nRun 2' };
    const pageNumber: PlannedBox = { id: 'slide-number', role: 'number', x: 9.2, y: 5.2, w: 0.5, h: 0.3, text: '4' };
    const words = [...line('Results', 0.6, 0.9), ...line('4', 0.7, 1.6, 12), ...line('0', 0.7, 4.5, 12), ...line('Run 1 Run 2', 3, 4.7, 12), ...line('4', 9.3, 5.45, 10)];
    expect(checkRenderedSlide(slide([titleBox, chart, pageNumber]), words, frame)).toEqual([]);
  });

  it('counts title lines by distinct baselines, and judges fill only where there is a body region', () => {
    expect(lineCount([...line('One two', 0.6, 0.9, 28), ...line('three', 3, 0.91, 28), ...line('four', 0.6, 1.4, 28)])).toBe(2);
    const sparse = [...line('Results', 0.6, 0.9), ...line('Recall improved on every benchmark', 0.6, 1.7)];
    expect(checkRenderedSlide(slide([titleBox, bodyBox]), sparse, frame)).toEqual([]);
    const judged = checkRenderedSlide(slide([titleBox, bodyBox], { body: { x: 0.5, y: 1.3, w: 9, h: 3.6 } }), sparse, frame);
    expect(judged.map((i) => i.kind)).toEqual(['underfilled']);
    expect(judged[0]?.message).toMatch(/covers 4% of the body area \(less than 33%\)/u);
  });
});
