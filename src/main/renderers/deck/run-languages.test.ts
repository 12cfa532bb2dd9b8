import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import JSZip from 'jszip';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { containsCjk } from '../../../shared/specs/deck';
import { isCjkCapableFace } from '../../../shared/specs/themes';
import { auditCjkFonts, decodeXmlText } from './cjk-fonts';
import { renderDeckFromFile } from './index';
import { checkPackage } from './pptx-inspect';
import { tagRunLanguages } from './run-languages';

const sampleSpec = fileURLToPath(new URL('../../../../samples/deck-zh-talk/deck.json', import.meta.url));

interface Run {
  props: string;
  text: string;
}

function runsOf(xml: string): Run[] {
  return [...xml.matchAll(/<a:r>([\s\S]*?)<\/a:r>/g)].map((m) => {
    const inner = m[1] ?? '';
    const text = [...inner.matchAll(/<a:t>([\s\S]*?)<\/a:t>/g)].map((t) => decodeXmlText(t[1] ?? '')).join('');
    return { props: /<a:rPr\b[^>]*>/.exec(inner)?.[0] ?? '', text };
  });
}

const lang = (tag: string): string | undefined => /\slang="([^"]*)"/.exec(tag)?.[1];
const altLang = (tag: string): string | undefined => /\saltLang="([^"]*)"/.exec(tag)?.[1];

describe('tagRunLanguages', () => {
  it('tags a Chinese notes run with the CJK language and an English one with the Latin language', () => {
    const zh = tagRunLanguages('<a:p><a:r><a:rPr lang="en-US" dirty="0"/><a:t>强调痛点</a:t></a:r><a:endParaRPr lang="en-US" dirty="0"/></a:p>', 'zh-CN');
    expect(zh).toBe('<a:p><a:r><a:rPr lang="zh-CN" altLang="en-US" dirty="0"/><a:t>强调痛点</a:t></a:r><a:endParaRPr lang="zh-CN" altLang="en-US" dirty="0"/></a:p>');
    const en = tagRunLanguages('<a:p><a:r><a:rPr lang="en-US" dirty="0"/><a:t>Go fast</a:t></a:r></a:p>', 'zh-CN');
    expect(en).toBe('<a:p><a:r><a:rPr lang="en-US" altLang="en-US" dirty="0"/><a:t>Go fast</a:t></a:r></a:p>');
  });

  it('gives chart text styles (no lang at all) the chart language, and a run without properties some', () => {
    const xml = '<a:defRPr sz="1400"><a:latin typeface="X"/></a:defRPr><a:r>\n  <a:rPr sz="1600"><a:latin typeface="X"/></a:rPr><a:t>得分</a:t></a:r><a:r><a:t>n</a:t></a:r>';
    expect(tagRunLanguages(xml, 'ja-JP')).toBe(
      '<a:defRPr lang="ja-JP" altLang="en-US" sz="1400"><a:latin typeface="X"/></a:defRPr><a:r>\n  <a:rPr lang="ja-JP" altLang="en-US" sz="1600"><a:latin typeface="X"/></a:rPr><a:t>得分</a:t></a:r><a:r><a:rPr lang="en-US" altLang="en-US"/><a:t>n</a:t></a:r>',
    );
  });
});

describe('languages in a rendered Chinese deck (samples/deck-zh-talk)', () => {
  let work: string;
  let zip: JSZip;
  let bytes: Buffer;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'deck-langs-'));
    const { path } = await renderDeckFromFile(sampleSpec, { outDir: work, baseDir: fileURLToPath(new URL('.', `file://${sampleSpec}`)), fileName: 'talk' });
    bytes = readFileSync(path);
    zip = await JSZip.loadAsync(bytes);
  }, 60_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const partsUnder = (dir: string): string[] => Object.keys(zip.files).filter((n) => new RegExp(`^ppt/${dir}/[^/]+\\.xml$`).test(n));
  const read = async (name: string): Promise<string> => (await zip.file(name)?.async('string')) ?? '';

  it('tags Chinese speaker notes zh-CN, with the slides\' altLang', async () => {
    const chinese: string[] = [];
    for (const name of partsUnder('notesSlides')) {
      for (const run of runsOf(await read(name))) {
        if (!containsCjk(run.text)) continue;
        chinese.push(run.text);
        expect(lang(run.props), run.text).toBe('zh-CN');
        expect(altLang(run.props), run.text).toBe('en-US');
      }
    }
    expect(chinese).toHaveLength(5);
  });

  it('tags every chart title run and text style (axis, data labels, legend) with a language', async () => {
    const charts = partsUnder('charts');
    expect(charts.length).toBeGreaterThan(0);
    for (const name of charts) {
      const xml = await read(name);
      const styles = [...xml.matchAll(/<a:defRPr\b[^>]*>/g)].map((m) => m[0]);
      expect(styles.length).toBeGreaterThan(0);
      for (const tag of styles) expect(lang(tag), `${name}: ${tag}`).toBe('zh-CN');
      for (const run of runsOf(xml)) expect(lang(run.props), `${name}: ${run.text}`).toBe(containsCjk(run.text) ? 'zh-CN' : 'en-US');
    }
  });

  it('keeps one properties element per run and the package sound', async () => {
    for (const name of [...partsUnder('charts'), ...partsUnder('notesSlides'), ...partsUnder('slides')]) {
      for (const m of (await read(name)).matchAll(/<a:r>([\s\S]*?)<\/a:r>/g)) {
        expect([...(m[1] ?? '').matchAll(/<a:rPr\b/g)], `${name}: ${m[0].slice(0, 120)}`).toHaveLength(1);
      }
    }
    const problems = await checkPackage(zip);
    expect(problems.missingTargets).toEqual([]);
    expect(problems.uncoveredParts).toEqual([]);
    expect(await auditCjkFonts(bytes, (face) => isCjkCapableFace(face))).toEqual([]);
  });
});
