import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProgressOf } from '../../shared/contract';
import { FolioError } from '../../shared/errors';
import { fakeProfile } from '../../../testing/fake-openai/fake-profile';
import { startFakeOpenAI, type FakeOpenAI } from '../../../testing/fake-openai/server';
import type { ModelProfile } from '../models/profile-schema';
import { minimalPdf, which } from '../sources/testing';
import { createOcrTool, NO_VISION_PROFILE, OCR_PROMPT, type OcrToolOptions, pickVisionProfile, unwrapFence } from './ocr';
import { countPdfPages, renderPdfPages } from './ocr-render';
import { contextFor, makeTempRoot, removeTemp, toolError, writeFiles } from './testing';
import { type ToolContext } from './types';

const hasPoppler = which('pdftoppm') && which('pdfinfo');

const KEY = 'sk-ocr-secret-key-5678';
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Stand-in page images: a PNG signature followed by the page number, so each request can be told apart. */
const fakePng = (page: number): Uint8Array => new Uint8Array([...PNG_SIGNATURE, 0, 0, 0, page]);

let fake: FakeOpenAI;
let root: string;
let vision: ModelProfile;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  vision = fakeProfile(fake.url, { vision: true, name: 'Fake vision' });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  root = makeTempRoot('folio-ocr-test-');
  writeFiles(root, {
    'source/scan.pdf': minimalPdf([null, null]),
    'source/long.pdf': minimalPdf(Array.from({ length: 12 }, () => null)),
    'source/photo.png': fakePng(1),
    'source/photo.jpg': new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 1]),
    'source/anim.gif': new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]),
    'notes.txt': 'plain text',
  });
});
afterEach(() => removeTemp(root));

interface Recorded {
  ctx: ToolContext;
  progress: [ProgressOf, number, number | null][];
}

function context(signal?: AbortSignal): Recorded {
  const progress: Recorded['progress'] = [];
  const ctx: ToolContext = { ...contextFor(root, signal), progress: (of, done, total) => progress.push([of, done, total]) };
  return { ctx, progress };
}

/** A tool that needs no poppler: page counts and renders are scripted. */
function scriptedTool(overrides: Partial<OcrToolOptions> = {}): { tool: ReturnType<typeof createOcrTool>; rendered: number[][] } {
  const rendered: number[][] = [];
  const tool = createOcrTool({
    pickVisionProfile: () => ({ profile: vision, apiKey: KEY }),
    countPages: (abs) => Promise.resolve(abs.endsWith('long.pdf') ? 12 : 2),
    renderPages: (_abs, pages, dpi) => {
      expect(dpi).toBe(150);
      rendered.push(pages);
      return Promise.resolve(pages.map((page) => ({ page, png: fakePng(page) })));
    },
    vision: { baseDelayMs: 5, maxRetries: 1 },
    ...overrides,
  });
  return { tool, rendered };
}

interface ImagePart {
  type: 'image_url';
  image_url: { url: string };
}

function sentParts(i: number): { text: string; images: ImagePart[] } {
  const body = fake.requests[i]?.body as { messages: { role: string; content: ({ type: 'text'; text: string } | ImagePart)[] }[] };
  expect(body.messages).toHaveLength(1);
  const content = body.messages[0]?.content ?? [];
  const text = content.find((p): p is { type: 'text'; text: string } => p.type === 'text')?.text ?? '';
  return { text, images: content.filter((p): p is ImagePart => p.type === 'image_url') };
}

function decodedImage(part: ImagePart | undefined): Buffer {
  const url = part?.image_url.url ?? '';
  expect(url.startsWith('data:image/png;base64,') || url.startsWith('data:image/jpeg;base64,')).toBe(true);
  return Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
}


describe('ocr tool', () => {
  it('transcribes pages in order, one image per request, with page markers, progress and usage', async () => {
    fake.script([
      { text: '第一页文字', usage: { prompt: 900, completion: 5 } },
      { text: '```markdown\n第二页文字\n```', usage: { prompt: 910, completion: 6 } },
    ]);
    const usages: number[] = [];
    const { tool, rendered } = scriptedTool({ onUsage: (_p, u) => usages.push(u.promptTokens) });
    const { ctx, progress } = context();
    const result = await tool.execute({ path: 'source/scan.pdf', pages: '1-2' }, ctx);

    expect(result.content).toMatch(/^<!-- page 1 -->\n\n第一页文字\n\n<!-- page 2 -->\n\n第二页文字\n\n\(OCR of source\/scan.pdf, pages 1-2 of 2, by Fake vision \(fake.main\)\.\)$/u);
    expect(rendered).toEqual([[1], [2]]);
    expect(usages).toEqual([900, 910]);
    expect(progress).toEqual([
      [{ step: 'ocr', file: 'scan.pdf' }, 0, 2],
      [{ step: 'ocr', file: 'scan.pdf' }, 1, 2],
      [{ step: 'ocr', file: 'scan.pdf' }, 2, 2],
    ]);
    expect(fake.requests).toHaveLength(2);
    for (const [i, page] of [1, 2].entries()) {
      const { text, images } = sentParts(i);
      expect(text).toBe(OCR_PROMPT);
      expect(images).toHaveLength(1);
      expect(images[0]?.image_url.url.startsWith('data:image/png;base64,')).toBe(true);
      expect([...decodedImage(images[0])]).toEqual([...fakePng(page)]);
    }
    expect(fake.requests[0]?.authLast4).toBe('5678');
  });

  it('asks for a faithful transcription that keeps the language and tables, without commentary', () => {
    expect(OCR_PROMPT).toMatch(/faithful/u);
    expect(OCR_PROMPT).toMatch(/do not translate/u);
    expect(OCR_PROMPT).toMatch(/tables as Markdown tables/u);
    expect(OCR_PROMPT).toMatch(/no commentary/u);
  });

  it('defaults to every page of a short PDF and refuses to guess for a long one', async () => {
    fake.script([{ text: 'one' }, { text: 'two' }]);
    const { tool } = scriptedTool();
    const result = await tool.execute({ path: 'source/scan.pdf' }, context().ctx);
    expect(result.content).toContain('<!-- page 2 -->\n\ntwo');
    const err = await toolError(tool.execute({ path: 'source/long.pdf' }, context().ctx));
    expect(err.message).toContain('has 12 pages');
    expect(err.message).toContain('pages="1-10"');
  });

  it('refuses more than 10 pages and pages out of range, before calling the provider', async () => {
    const { tool, rendered } = scriptedTool();
    const tooMany = await toolError(tool.execute({ path: 'source/long.pdf', pages: '1-11' }, context().ctx));
    expect(tooMany.message).toContain('at most 10');
    const outOfRange = await toolError(tool.execute({ path: 'source/scan.pdf', pages: '2-3' }, context().ctx));
    expect(outOfRange.message).toContain('out of range');
    expect(outOfRange.message).toContain('2 pages');
    const garbage = await toolError(tool.execute({ path: 'source/scan.pdf', pages: 'all' }, context().ctx));
    expect(garbage.message).toContain('not a page list');
    expect(rendered).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it('sends PNG and JPEG images as they are, as page 1', async () => {
    fake.script([{ text: 'png text' }, { text: 'jpeg text' }]);
    const { tool, rendered } = scriptedTool();
    expect((await tool.execute({ path: 'source/photo.png' }, context().ctx)).content).toMatch(/^<!-- page 1 -->\n\npng text\n/u);
    expect((await tool.execute({ path: 'source/photo.jpg', pages: '1' }, context().ctx)).content).toContain('jpeg text');
    expect(rendered).toEqual([]);
    expect(sentParts(0).images[0]?.image_url.url).toBe(`data:image/png;base64,${Buffer.from(fakePng(1)).toString('base64')}`);
    expect(sentParts(1).images[0]?.image_url.url.startsWith('data:image/jpeg;base64,/9j/')).toBe(true);
    const err = await toolError(tool.execute({ path: 'source/photo.png', pages: '2' }, context().ctx));
    expect(err.message).toContain('an image is one page');
  });

  it('refuses files that are not PDF, PNG or JPEG, directories, missing files and paths outside the task folder', async () => {
    const { tool } = scriptedTool();
    expect((await toolError(tool.execute({ path: 'notes.txt' }, context().ctx))).message).toContain('not a PDF, PNG or JPEG');
    expect((await toolError(tool.execute({ path: 'source/anim.gif' }, context().ctx))).message).toContain('not a PDF, PNG or JPEG');
    expect((await toolError(tool.execute({ path: 'source' }, context().ctx))).message).toContain('is a directory');
    expect((await toolError(tool.execute({ path: 'source/none.pdf' }, context().ctx))).message).toContain('File not found');
    expect((await toolError(tool.execute({ path: '../outside.pdf' }, context().ctx))).message).toContain('escapes the task folder');
    expect((await toolError(tool.execute({ path: '/etc/passwd' }, context().ctx))).message).toContain('absolute');

    const outside = makeTempRoot('folio-ocr-outside-');
    try {
      fs.writeFileSync(path.join(outside, 'secret.pdf'), minimalPdf([null]));
      fs.symlinkSync(path.join(outside, 'secret.pdf'), path.join(root, 'source', 'link.pdf'));
      expect((await toolError(tool.execute({ path: 'source/link.pdf' }, context().ctx))).message).toContain('outside the task folder');
    } finally {
      removeTemp(outside);
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('says how to get a vision profile when there is none', async () => {
    const { tool } = scriptedTool({ pickVisionProfile: () => null });
    const err = await toolError(tool.execute({ path: 'source/scan.pdf', pages: '1' }, context().ctx));
    expect(err.message).toBe(NO_VISION_PROFILE);
    expect(err.message).toContain('`vision: true` in config/models (and give it a key)');
  });

  it('fails with a typed error that does not contain the key when the provider rejects it', async () => {
    fake.script([{ fault: 'status', status: 401, body: { error: { message: `bad key ${KEY}` } } }]);
    const { tool } = scriptedTool();
    let caught: unknown;
    try {
      await tool.execute({ path: 'source/scan.pdf', pages: '1-2' }, context().ctx);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(FolioError);
    expect((caught as FolioError).code).toBe('provider_error');
    expect((caught as FolioError).message).toContain('401');
    expect((caught as FolioError).message).not.toContain(KEY);
    expect(fake.requests).toHaveLength(1);
  });

  it('keeps the pages already transcribed when a later one fails, and says where to continue', async () => {
    fake.script([{ text: 'page one text' }, { fault: 'status', status: 400, body: { error: { message: 'image too large' } } }]);
    const { tool } = scriptedTool();
    const result = await tool.execute({ path: 'source/long.pdf', pages: '1,2,5' }, context().ctx);
    expect(result.content).toContain('<!-- page 1 -->\n\npage one text');
    expect(result.content).not.toContain('<!-- page 2 -->');
    expect(result.content).toContain('stopped at page 2');
    expect(result.content).toContain('image too large');
    expect(result.content).toContain('call ocr with pages="2,5"');
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const { tool } = scriptedTool();
    let caught: unknown;
    try {
      await tool.execute({ path: 'source/scan.pdf', pages: '1' }, context(controller.signal).ctx);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(FolioError);
    expect((caught as FolioError).code).toBe('cancelled');
    expect(fake.requests).toHaveLength(0);
  });

  it('names poppler-utils when poppler is not installed', async () => {
    const emptyBin = makeTempRoot('folio-ocr-nobin-');
    try {
      const tool = createOcrTool({ pickVisionProfile: () => ({ profile: vision, apiKey: KEY }), popplerEnv: { PATH: emptyBin } });
      const err = await toolError(tool.execute({ path: 'source/scan.pdf', pages: '1' }, context().ctx));
      expect(err.message).toContain('pdfinfo was not found');
      expect(err.message).toContain('poppler-utils');
      const render = await toolError(renderPdfPages(path.join(root, 'source/scan.pdf'), [1], 150, { env: { PATH: emptyBin } }));
      expect(render.message).toContain('pdftoppm was not found');
      expect(render.message).toContain('poppler-utils');
    } finally {
      removeTemp(emptyBin);
    }
    expect(fake.requests).toHaveLength(0);
  });

  it.skipIf(!hasPoppler)('renders real PDF pages with poppler and sends them as PNG (needs poppler-utils)', async () => {
    fake.script([{ text: '第一页文字' }, { text: '第二页文字' }]);
    const tool = createOcrTool({ pickVisionProfile: () => ({ profile: vision, apiKey: KEY }) });
    const result = await tool.execute({ path: 'source/scan.pdf', pages: '1-2' }, context().ctx);
    expect(result.content.indexOf('<!-- page 1 -->\n\n第一页文字')).toBe(0);
    expect(result.content.indexOf('<!-- page 2 -->\n\n第二页文字')).toBeGreaterThan(0);
    for (const i of [0, 1]) {
      const png = decodedImage(sentParts(i).images[0]);
      expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
      // A US-letter page at 150 dpi: 1275 x 1650 pixels (IHDR width and height).
      expect(png.readUInt32BE(16)).toBe(1275);
      expect(png.readUInt32BE(20)).toBe(1650);
    }
  });
});

describe.skipIf(!hasPoppler)('poppler helpers (need poppler-utils)', () => {
  it('counts pages, renders the asked pages and leaves no temporary files', async () => {
    const pdf = path.join(root, 'source/long.pdf');
    expect(await countPdfPages(pdf)).toBe(12);
    const before = fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('folio-ocr-') && !n.startsWith('folio-ocr-test-')).length;
    const pages = await renderPdfPages(pdf, [3, 12], 72);
    expect(pages.map((p) => p.page)).toEqual([3, 12]);
    for (const p of pages) expect([...p.png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    const after = fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('folio-ocr-') && !n.startsWith('folio-ocr-test-')).length;
    expect(after).toBe(before);
  });

  it('reports a damaged PDF as a tool error', async () => {
    fs.writeFileSync(path.join(root, 'bad.pdf'), '%PDF-1.4\nnot really a pdf');
    const err = await toolError(countPdfPages(path.join(root, 'bad.pdf')));
    expect(err.message).toMatch(/pdfinfo/u);
  });
});

describe('unwrapFence', () => {
  it('removes one outer code fence and nothing else', () => {
    expect(unwrapFence('```markdown\n# Title\n\ntext\n```')).toBe('# Title\n\ntext');
    expect(unwrapFence('```\n| a | b |\n```')).toBe('| a | b |');
    expect(unwrapFence('text\n\n```py\ncode\n```')).toBe('text\n\n```py\ncode\n```');
  });
});

describe('pickVisionProfile', () => {
  const profile = (id: string, fields: Record<string, unknown>): ModelProfile => ({ ...fakeProfile('http://127.0.0.1:1/v1', fields), id });
  const chatA = profile('a.chat', { provider: 'a', vision: true });
  const chatAText = profile('a.text', { provider: 'a' });
  const workerA = profile('a.worker', { provider: 'a', role: 'worker', vision: true });
  const workerB = profile('b.worker', { provider: 'b', role: 'worker', vision: true });
  const chatB = profile('b.chat', { provider: 'b', vision: true });
  const all = [chatB, workerB, chatA, chatAText, workerA];
  const keyed = (): boolean => true;

  it("prefers the task's own profile when it has vision", () => {
    expect(pickVisionProfile(all, 'a.chat', keyed)?.id).toBe('a.chat');
  });

  it("then a worker with vision, at the task's provider first", () => {
    expect(pickVisionProfile(all, 'a.text', keyed)?.id).toBe('a.worker');
    expect(pickVisionProfile([chatB, workerB, chatA, chatAText], 'a.text', keyed)?.id).toBe('b.worker');
    expect(pickVisionProfile(all, null, keyed)?.id).toBe('b.worker');
  });

  it('then any vision profile, skipping those without a key', () => {
    expect(pickVisionProfile([chatB, chatAText, chatA], 'a.text', keyed)?.id).toBe('a.chat');
    expect(pickVisionProfile([chatB, chatAText, chatA], 'missing', keyed)?.id).toBe('b.chat');
    const noKeyForA = (p: ModelProfile): boolean => p.provider !== 'a';
    expect(pickVisionProfile(all, 'a.chat', noKeyForA)?.id).toBe('b.worker');
  });

  it('returns null when no profile has vision and a key', () => {
    expect(pickVisionProfile([chatAText], 'a.text', keyed)).toBeNull();
    expect(pickVisionProfile(all, 'a.chat', () => false)).toBeNull();
    expect(pickVisionProfile([], null, keyed)).toBeNull();
  });
});
