import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import JSZip from 'jszip';
import PptxGenJS from 'pptxgenjs';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FolioError } from '../../../shared/errors';
import { type DeckSpecInput, type DeckSpec, type QualityReport } from '../../../shared/specs/deck';
import { BUILTIN_THEMES, findTheme, isCjkCapableFace } from '../../../shared/specs/themes';
import { auditCjkFonts } from './cjk-fonts';
import { renderDeck, renderDeckFromFile } from './index';
import { sampleSlides } from './plan/samples';
import { postProcessDeck } from './post-process';
import { checkPackage, paragraphTexts, slidePartNames } from './pptx-inspect';
import { createTextMeasurer, TableMeasurer } from '../typesetting/fonts';
import { headingElementId } from './draw/text';

const sampleDir = fileURLToPath(new URL('../../../../samples/deck-zh-talk/', import.meta.url));
const isCapable = (face: string): boolean => isCjkCapableFace(face);

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'deck-render-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function open(path: string): Promise<JSZip> {
  return JSZip.loadAsync(readFileSync(path));
}

async function slideXml(zip: JSZip, n: number): Promise<string> {
  return (await zip.file(`ppt/slides/slide${n}.xml`)?.async('string')) ?? '';
}

/** The notes text of output slide n, found through the slide's relationships. */
async function notesOf(zip: JSZip, n: number): Promise<string> {
  const rels = (await zip.file(`ppt/slides/_rels/slide${n}.xml.rels`)?.async('string')) ?? '';
  const target = /Target="\.\.\/notesSlides\/(notesSlide\d+\.xml)"/.exec(rels)?.[1];
  if (!target) return '';
  return paragraphTexts((await zip.file(`ppt/notesSlides/${target}`)?.async('string')) ?? '').join('\n');
}

function slideTitle(xml: string): string {
  return paragraphTexts(xml)[0] ?? '';
}

function issuesOf(report: QualityReport, index: number): string[] {
  return report.slides.find((s) => s.index === index)?.issues.map((i) => i.kind) ?? [];
}

/** Structural checks every rendered deck must pass. */
async function expectSoundPackage(path: string, slideCount: number): Promise<JSZip> {
  const zip = await open(path);
  const problems = await checkPackage(zip);
  expect(problems.missingTargets).toEqual([]);
  expect(problems.uncoveredParts).toEqual([]);
  expect(slidePartNames(zip)).toHaveLength(slideCount);
  const pres = (await zip.file('ppt/presentation.xml')?.async('string')) ?? '';
  expect([...pres.matchAll(/<p:sldId\b/g)]).toHaveLength(slideCount);
  expect(await auditCjkFonts(readFileSync(path), isCapable)).toEqual([]);
  // One paragraph-properties element per paragraph, first (pptxgenjs writes one per run).
  for (const name of slidePartNames(zip)) {
    const xml = (await zip.file(name)?.async('string')) ?? '';
    for (const m of xml.matchAll(/<a:p>([\s\S]*?)<\/a:p>/g)) {
      const inner = m[1] ?? '';
      const count = [...inner.matchAll(/<a:pPr\b/g)].length;
      expect(count, name).toBeLessThanOrEqual(1);
      if (count === 1) expect(inner.startsWith('<a:pPr'), name).toBe(true);
    }
  }
  return zip;
}

describe('renderDeck: the Chinese sample talk', () => {
  let result: Awaited<ReturnType<typeof renderDeck>>;
  let zip: JSZip;
  let spec: DeckSpec;
  beforeAll(async () => {
    // Charts and tables are drawn by their own drawers and tested with them (draw/chart, draw/table).
    const full = JSON.parse(readFileSync(join(sampleDir, 'deck.json'), 'utf8')) as DeckSpec;
    spec = { ...full, slides: full.slides.filter((s) => s.layout !== 'chart' && s.layout !== 'table') };
    mkdirSync(join(work, 'spec'), { recursive: true });
    writeFileSync(join(work, 'spec', 'deck.json'), JSON.stringify(spec));
    copyFileSync(join(sampleDir, 'figure-pipeline.png'), join(work, 'spec', 'figure-pipeline.png'));
    result = await renderDeckFromFile(join(work, 'spec', 'deck.json'), { baseDir: join(work, 'spec'), outDir: join(work, 'sample') });
    zip = await expectSoundPackage(result.path, result.slideCount);
  });

  it('writes one slide per spec slide, all reported, and returns the plan it drew', () => {
    expect(result.slideCount).toBe(spec.slides.length);
    expect(result.plan.slides).toHaveLength(spec.slides.length);
    expect(result.report.summary).toMatchObject({ slides_in: spec.slides.length, slides_out: spec.slides.length });
    expect(result.report.slides.map((s) => s.output_slides)).toEqual(spec.slides.map((_, i) => [i + 1]));
    expect(result.report.slides.flatMap((s) => s.issues)).toEqual([]);
  });

  it('puts speaker notes on the slides that have them', async () => {
    for (const [i, s] of spec.slides.entries()) {
      const notes = await notesOf(zip, i + 1);
      if (s.notes) expect(notes).toContain(s.notes);
    }
  });

  it('embeds the image', () => {
    const media = Object.keys(zip.files).filter((n) => n.startsWith('ppt/media/') && !n.endsWith('/'));
    expect(media.length).toBeGreaterThan(0);
  });

  it('makes every slide title a real title placeholder, at the planned box', async () => {
    for (const [i, planned] of result.plan.slides.entries()) {
      const xml = await slideXml(zip, i + 1);
      // The heading: the title, or on an untitled quote slide the quote (screen readers need one).
      const headingId = headingElementId(planned.elements.filter((e) => !(e.kind === 'text' && e.fromMaster)));
      const title = planned.elements.find((e) => e.id === headingId);
      if (planned.elements.some((e) => e.kind === 'text' && (e.role === 'title' || e.role === 'quote'))) expect(title, `slide ${i + 1}`).toBeDefined();
      const ph = [...xml.matchAll(/<p:ph type="title"\/>/g)];
      expect(ph, `slide ${i + 1}`).toHaveLength(title ? 1 : 0);
      if (!title) continue;
      const sp = /<p:sp>(?:(?!<\/p:sp>)[\s\S])*?<p:ph type="title"\/>[\s\S]*?<a:off x="(\d+)" y="(\d+)"\/>/.exec(xml);
      expect(Number(sp?.[1]) / 914400).toBeCloseTo(title.box.x, 2);
      expect(Number(sp?.[2]) / 914400).toBeCloseTo(title.box.y, 2);
    }
  });

  it('never sets CJK text in italic', async () => {
    for (const name of slidePartNames(zip)) {
      const xml = (await zip.file(name)?.async('string')) ?? '';
      for (const m of xml.matchAll(/<a:r>([\s\S]*?)<\/a:r>/g)) {
        const run = m[1] ?? '';
        if (/[\u4e00-\u9fff]/.test(run)) expect(run, name).not.toMatch(/\bi="1"/);
      }
    }
  });

  it('gives Chinese runs the CJK face and Latin runs the Latin face', async () => {
    const xml = await slideXml(zip, 2);
    expect(xml).toMatch(/<a:rPr lang="zh-CN"[^>]*>(?:(?!<\/a:rPr>).)*<a:ea typeface="Noto Serif CJK SC"[^>]*\/>(?:(?!<\/a:rPr>).)*<\/a:rPr><a:t>研究背景<\/a:t>/);
    expect(xml).toMatch(/<a:latin typeface="Times New Roman"[^>]*\/>(?:(?!<\/a:rPr>).)*<\/a:rPr><a:t>Background<\/a:t>/);
    const theme = (await zip.file('ppt/theme/theme1.xml')?.async('string')) ?? '';
    expect(theme).toMatch(/<a:minorFont>.*?<a:ea typeface="Noto Sans CJK SC"\/>/s);
  });

  it('never overwrites: a second render gets a -v2 name', async () => {
    const again = await renderDeckFromFile(join(work, 'spec', 'deck.json'), { baseDir: join(work, 'spec'), outDir: join(work, 'sample') });
    expect(basename(again.path)).toBe('deck-v2.pptx');
    expect(basename(result.path)).toBe('deck.pptx');
  });
});

describe('renderDeck: fitting and the quality report', () => {
  const bullets40 = Array.from({ length: 40 }, (_, i) => `Finding ${i + 1}: the effect holds across all three datasets we tried`);
  const spec: DeckSpecInput = {
    title: 'Stress deck',
    language: 'en',
    footer: 'Lab meeting',
    slides: [
      { layout: 'title', subtitle: 'Fitting' },
      { layout: 'bullets', title: 'Forty findings', bullets: bullets40, notes: 'Go fast here.' },
      { layout: 'image', title: 'A lost figure', image: 'figures/missing.png', caption: 'should be a placeholder' },
      { layout: 'bullets', title: 'Nearly nothing', bullets: ['Yes'] },
      { layout: 'bullets', title: 'Nothing', bullets: [] },
    ],
  };
  let result: Awaited<ReturnType<typeof renderDeck>>;
  let zip: JSZip;
  beforeAll(async () => {
    result = await renderDeck(spec as DeckSpec, { baseDir: work, outDir: join(work, 'stress'), fileName: 'stress' });
    zip = await expectSoundPackage(result.path, result.slideCount);
  });

  it('splits 40 bullets over several slides titled "(cont.)" after the first', async () => {
    const out = result.report.slides[1]?.output_slides ?? [];
    expect(out.length).toBeGreaterThanOrEqual(3);
    expect(slideTitle(await slideXml(zip, out[0] ?? 0))).toBe('Forty findings');
    for (const n of out.slice(1)) expect(slideTitle(await slideXml(zip, n))).toBe('Forty findings (cont.)');
    const allText = (await Promise.all(out.map((n) => slideXml(zip, n)))).flatMap(paragraphTexts).join('\n');
    for (const b of bullets40) expect(allText).toContain(b);
    expect(issuesOf(result.report, 1)).toEqual(expect.arrayContaining(['split', 'too_many_words']));
    expect(await notesOf(zip, out[0] ?? 0)).toContain('Go fast here.');
  });

  it('draws a placeholder for a missing image and reports it', async () => {
    const [n] = result.report.slides[2]?.output_slides ?? [];
    expect(paragraphTexts(await slideXml(zip, n ?? 0)).join('\n')).toMatch(/Image missing: "figures\/missing\.png" was not found/);
    expect(issuesOf(result.report, 2)).toContain('missing_image');
  });

  it('flags near-empty and empty slides', () => {
    expect(issuesOf(result.report, 3)).toContain('near_empty');
    expect(issuesOf(result.report, 4)).toContain('empty');
  });

  it('counts output slides in the summary', () => {
    const total = result.report.slides.reduce((n, s) => n + s.output_slides.length, 0);
    expect(result.slideCount).toBe(total);
    expect(result.report.summary.slides_out).toBe(total);
    expect(result.report.summary.issues).toBe(result.report.slides.reduce((n, s) => n + s.issues.length, 0));
    expect(basename(result.path)).toBe('stress.pptx');
  });
});

describe('renderDeck: Chinese continuation, user themes, errors', () => {
  it('titles Chinese continuation slides "（续）"', async () => {
    const spec: DeckSpecInput = {
      title: '压力测试',
      slides: [{ layout: 'bullets', title: '四十条结论', bullets: Array.from({ length: 40 }, (_, i) => `结论 ${i + 1}：该效应在三个数据集上都成立`) }],
    };
    const r = await renderDeck(spec as DeckSpec, { baseDir: work, outDir: join(work, 'zh') });
    const zip = await expectSoundPackage(r.path, r.slideCount);
    expect(r.slideCount).toBeGreaterThan(1);
    expect(slideTitle(await slideXml(zip, 1))).toBe('四十条结论');
    for (let n = 2; n <= r.slideCount; n++) expect(slideTitle(await slideXml(zip, n))).toBe('四十条结论（续）');
  });

  it('uses a user theme from themesDir and flags its low contrast', async () => {
    const themesDir = join(work, 'themes');
    mkdirSync(themesDir, { recursive: true });
    const academic = findTheme('academic');
    writeFileSync(join(themesDir, 'pale.json'), JSON.stringify({ ...academic, name: 'pale', label: 'Pale', palette: { ...academic?.palette, text: 'BBBBBB' } }));
    const spec: DeckSpecInput = { title: 'Pale', theme: 'pale', slides: [{ layout: 'bullets', title: 'Hard to read', bullets: ['light grey on white is hard to read'] }] };
    const r = await renderDeck(spec as DeckSpec, { baseDir: work, outDir: join(work, 'pale'), themesDir });
    expect(r.report.slides[0]?.issues.map((i) => i.kind)).toContain('low_contrast');
    const xml = await slideXml(await open(r.path), 1);
    expect(xml).toContain('BBBBBB');
  });

  it('refuses an unknown theme, naming the themes', async () => {
    const spec = { title: 'x', theme: 'neon', slides: [{ layout: 'title' }] };
    await expect(renderDeck(spec as DeckSpec, { baseDir: work, outDir: work })).rejects.toThrow(/unknown theme "neon".*academic.*dark/);
  });

  it('refuses an invalid spec with the validation errors', async () => {
    const spec = { title: 'x', slides: [{ layout: 'bullets', bullets: [] }] };
    await expect(renderDeck(spec as unknown as DeckSpec, { baseDir: work, outDir: work })).rejects.toThrow(/slides\[0\]\.title: required/);
  });

  it('reports malformed JSON with line and column', async () => {
    const path = join(work, 'bad.json');
    writeFileSync(path, '{\n  "title": "x",\n  "slides": [\n    { "layout": "title" },\n  ]\n}\n');
    const err = await renderDeckFromFile(path, { baseDir: work, outDir: work }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FolioError);
    expect((err as FolioError).code).toBe('invalid_input');
    expect((err as FolioError).message).toMatch(/bad\.json is not valid JSON.*line 5/);
  });

  it('reports a missing spec file as not found', async () => {
    const err = await renderDeckFromFile(join(work, 'none.json'), { baseDir: work, outDir: work }).catch((e: unknown) => e);
    expect((err as FolioError).code).toBe('not_found');
  });

  it('refuses an image reached through a symlink out of the task folder', async () => {
    const task = join(work, 'task');
    mkdirSync(task, { recursive: true });
    const { symlinkSync } = await import('node:fs');
    symlinkSync(sampleDir, join(task, 'escape'));
    const spec: DeckSpecInput = { title: 'x', slides: [{ layout: 'image', title: 'I', image: 'escape/figure-pipeline.png' }] };
    const err = await renderDeck(spec as DeckSpec, { baseDir: task, outDir: join(work, 'esc') }).catch((e: unknown) => e);
    expect((err as FolioError).code).toBe('path_escape');
    copyFileSync(join(sampleDir, 'figure-pipeline.png'), join(task, 'fig.png'));
    const ok = await renderDeck({ ...spec, slides: [{ layout: 'image', title: 'I', image: 'fig.png' }] } as DeckSpec, { baseDir: task, outDir: join(work, 'esc') });
    expect(ok.report.slides[0]?.issues).toEqual([]);
  });
});

/** Each run of a slide: its text and its Latin typeface, as PowerPoint reads them. */
function runFaces(xml: string): Array<[string, string]> {
  return Array.from(xml.matchAll(/<a:r>([\s\S]*?)<\/a:r>/g), (m) => {
    const run = m[1] ?? '';
    return [/<a:t>([\s\S]*?)<\/a:t>/.exec(run)?.[1] ?? '', /<a:latin typeface="([^"]*)"/.exec(run)?.[1] ?? ''];
  });
}

describe('renderDeck: emoji', () => {
  const spec: DeckSpecInput = {
    title: 'Emoji',
    theme: 'business',
    slides: [{ layout: 'bullets', title: 'Launch 🚀', bullets: ['Shipped ✅ on time', '上线 🎉 顺利'] }],
  };

  it('sets emoji runs in the installed colour emoji face, and only them', async () => {
    const out = join(work, 'emoji');
    const result = await renderDeck(spec as DeckSpec, { baseDir: work, outDir: out, measurer: new TableMeasurer(() => 'Noto Color Emoji') });
    const faces = runFaces(await slideXml(await open(result.path), 1));
    const emojiRuns = faces.filter(([, face]) => face === 'Noto Color Emoji').map(([text]) => text);
    expect(emojiRuns).toEqual(['🚀', '✅', '🎉']);
    expect(faces.filter(([text]) => /Shipped|on time|Launch/.test(text)).every(([, face]) => face !== 'Noto Color Emoji')).toBe(true);
    expect(issuesOf(result.report, 0)).not.toContain('emoji_font');
  });

  const bitmapEmoji = createTextMeasurer();
  it.skipIf(bitmapEmoji.emojiFace() !== 'Noto Color Emoji')('reports emoji the installed face has only as bitmaps (blank in LibreOffice\'s PDF) or lacks, from its glyphs', async () => {
    const out = join(work, 'emoji-blank');
    const result = await renderDeck({ ...spec, slides: [{ layout: 'bullets', title: 'Launch 🚀', bullets: ['Done ✅', '\u{1FAE8} new'] }] } as DeckSpec, { baseDir: work, outDir: out, measurer: bitmapEmoji });
    const issue = result.report.slides[0]?.issues.find((i) => i.kind === 'emoji_font');
    expect(issue?.message).toMatch(/^🚀 ✅ .*Noto Color Emoji has them only as colour bitmaps/);
    expect(bitmapEmoji.blankEmoji(['🚀'])).toEqual([{ emoji: '🚀', reason: 'bitmap' }]);
    expect(bitmapEmoji.blankEmoji(['\u{10FFFD}'])).toEqual([{ emoji: '\u{10FFFD}', reason: 'missing' }]);
  });

  it('reports emoji_font and keeps the text faces when no emoji face is installed', async () => {
    const out = join(work, 'emoji-none');
    const result = await renderDeck(spec as DeckSpec, { baseDir: work, outDir: out, measurer: new TableMeasurer(() => null) });
    const faces = runFaces(await slideXml(await open(result.path), 1));
    expect(faces.some(([text]) => text.includes('🚀'))).toBe(true);
    expect(faces.some(([, face]) => face === 'Noto Color Emoji')).toBe(false);
    expect(issuesOf(result.report, 0)).toContain('emoji_font');
  });
});

describe('CJK font post-processing', () => {
  it('finds CJK runs without an east-Asian face in raw pptxgenjs output and fixes them', async () => {
    const pptx = new PptxGenJS();
    const slide = pptx.addSlide();
    slide.addText('中文 text', { x: 1, y: 1, w: 5, h: 1, fontFace: 'Arial' });
    slide.addNotes('这是备注');
    const raw = (await pptx.write({ outputType: 'nodebuffer' })) as Uint8Array;
    const before = await auditCjkFonts(raw, isCapable);
    expect(before.map((p) => p.text)).toEqual(expect.arrayContaining(['中文 text', '这是备注']));
    const { bytes: fixed, cjkProblems } = await postProcessDeck(raw, { cjkHeading: 'Noto Sans CJK SC', cjkBody: 'Noto Sans CJK SC', isCapable });
    expect(cjkProblems).toEqual([]);
    // The audit it returns is of the parts it wrote: with no face accepted as CJK-capable, every CJK run is named.
    const strict = await postProcessDeck(raw, { cjkHeading: 'Arial', cjkBody: 'Arial', isCapable: () => false });
    expect(strict.cjkProblems.map((p) => p.text)).toEqual(expect.arrayContaining(['中文 text', '这是备注']));
    expect(await auditCjkFonts(fixed, isCapable)).toEqual([]);
    const problems = await checkPackage(await JSZip.loadAsync(fixed));
    expect(problems).toEqual({ missingTargets: [], uncoveredParts: [] });
  });
});

describe('renderDeck: every text layout in every theme', () => {
  const { sparse, dense } = sampleSlides('figure-pipeline.png');
  for (const theme of BUILTIN_THEMES) {
    it(`${theme.name}: dense and sparse samples make sound files`, async () => {
      const task = join(work, `layouts-${theme.name}`);
      mkdirSync(task, { recursive: true });
      copyFileSync(join(sampleDir, 'figure-pipeline.png'), join(task, 'figure-pipeline.png'));
      const r = await renderDeck({ title: 'Layouts', theme: theme.name, footer: 'Folio', slides: [...sparse, ...dense] } as DeckSpec, { baseDir: task, outDir: task });
      const zip = await expectSoundPackage(r.path, r.slideCount);
      expect(r.slideCount).toBe(r.plan.slides.length);
      expect(r.report.slides.flatMap((s) => s.issues.map((i) => i.kind))).not.toContain('missing_image');
      // Each planned text is on its slide, whole (cut text ends with "…"); a line written in stands for the space it broke at.
      const letters = (t: string): string => t.replace(/\s/g, '');
      for (const [i, planned] of r.plan.slides.entries()) {
        const texts = letters(paragraphTexts(await slideXml(zip, i + 1)).join('\n'));
        for (const el of planned.elements) if (el.kind === 'text' && !el.fromMaster) for (const p of el.paragraphs) expect(texts).toContain(letters(p.text));
      }
    });
  }
});
