import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  chineseCounting,
  documentTemplates,
  formatNumber,
  headingLabel,
  headingLabelJoiner,
  levelText,
  listNumberFormats,
  isReferencesHeading,
  missingOutlineEntries,
  normalizeHeading,
  templateOutline,
} from '../../../shared/specs/document';
import { eastAsianLanguage, fontSet, runLanguage } from './fonts';
import { pageGeometry } from './geometry';
import { readImageInfo } from './image-size';
import { effectiveDpi, fitImage, TARGET_DPI } from './images';
import { estimatePages } from './page-estimate';
import { columnWidths } from './tables';
import { countCjkChars, countWords, joinSoftBreaks } from './text-metrics';

const SAMPLE_PNG = join(import.meta.dirname, '../../../../samples/proposal-nsfc/figures/framework.png');

function jpegHeader(width: number, height: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00];
  const sof2 = [0xff, 0xc2, 0x00, 0x11, 0x08, height >> 8, height & 255, width >> 8, width & 255, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  return new Uint8Array([0xff, 0xd8, ...app0, ...sof2, 0xff, 0xd9]);
}

describe('image headers', () => {
  it('reads PNG and (progressive) JPEG sizes, and refuses other data', () => {
    expect(readImageInfo(new Uint8Array(readFileSync(SAMPLE_PNG)))).toEqual({ type: 'png', width: 801, height: 301 });
    expect(readImageInfo(jpegHeader(640, 480))).toEqual({ type: 'jpg', width: 640, height: 480 });
    expect(readImageInfo(new TextEncoder().encode('GIF89a....'))).toBeUndefined();
    expect(readImageInfo(new Uint8Array([0xff, 0xd8, 0xff]))).toBeUndefined();
  });

  it('fits pictures to the text width without blowing small ones up past 150 dpi, capping tall ones', () => {
    const geometry = pageGeometry(documentTemplates.nsfc);
    const textWidthPx = Math.round((geometry.textWidth / 1440) * 96);
    // Large enough for the text width at 150 dpi: full width.
    const large = fitImage({ type: 'png', width: 1600, height: 600 }, geometry);
    expect(large.width).toBe(textWidthPx);
    expect(Math.abs(large.height - (600 / 1600) * textWidthPx)).toBeLessThanOrEqual(1);
    // 801 px print at 150 dpi 5.34 in wide, narrower than the text: placed at that size, so at 150 dpi.
    const sample = fitImage({ type: 'png', width: 801, height: 301 }, geometry);
    expect(sample.width).toBe(Math.round((801 / 150) * 96));
    expect(effectiveDpi({ type: 'png', width: 801, height: 301 }, sample.width)).toBe(150);
    // A small picture still takes half the text width, and then prints under 150 dpi.
    const small = fitImage({ type: 'png', width: 200, height: 100 }, geometry);
    expect(small.width).toBe(Math.round(textWidthPx / 2));
    expect(effectiveDpi({ type: 'png', width: 200, height: 100 }, small.width)).toBeLessThan(TARGET_DPI);
    const tall = fitImage({ type: 'png', width: 100, height: 1000 }, geometry);
    expect(tall.height).toBeLessThanOrEqual(Math.round((geometry.textHeight / 1440) * 96 * 0.6));
    expect(tall.width).toBeLessThan(textWidthPx);
  });
});

describe('table column widths', () => {
  it('always sums to the text width, wider content getting wider columns', () => {
    for (const ems of [[4, 10, 30], [1], [5, 5, 5, 5, 5, 5, 5], [100, 1, 1]]) {
      const widths = columnWidths(ems, 8300);
      expect(widths.reduce((a, b) => a + b, 0)).toBe(8300);
      expect(Math.min(...widths)).toBeGreaterThan(0);
    }
    const [narrow, , wide] = columnWidths([4, 10, 30], 8300);
    expect(wide).toBeGreaterThan(narrow ?? Infinity);
  });
});

describe('heading numbering and the NSFC outline', () => {
  it('counts in Chinese as Word does', () => {
    expect([1, 2, 9, 10, 11, 20, 23, 99].map(chineseCounting)).toEqual(['一', '二', '九', '十', '十一', '二十', '二十三', '九十九']);
  });

  it('labels headings per template, four levels deep', () => {
    expect(headingLabel('chinese', [2])).toBe('二、');
    expect(headingLabel('chinese', [2, 3])).toBe('（三）');
    expect(headingLabel('chinese', [2, 3, 4])).toBe('4.');
    expect(headingLabel('chinese', [2, 3, 4, 5])).toBe('（5）');
    expect(headingLabel('decimal', [2, 3, 4])).toBe('2.3.4');
    expect(headingLabel('decimal', [2, 3, 4, 1])).toBe('2.3.4.1');
    expect(headingLabelJoiner('chinese', 1)).toBe('');
    expect(headingLabelJoiner('chinese', 2)).toBe(' ');
    expect(headingLabelJoiner('chinese', 3)).toBe('');
    // The NSFC 正文 outline's own levels: （一） parts, 1. items, then （1） and ①, Chinese at every level.
    expect([[2], [2, 3], [2, 3, 4], [2, 3, 4, 1]].map((c) => headingLabel('nsfc', c))).toEqual(['（二）', '3.', '（4）', '①']);
    expect([0, 1, 2, 3].map((level) => headingLabelJoiner('nsfc', level))).toEqual(['', ' ', '', '']);
    expect(documentTemplates.nsfc_general.headingNumbering).toBe('nsfc');
    expect(documentTemplates.nsfc_youth.headingNumbering).toBe('nsfc');
    // Folders written for the old flat template keep 一、…七、.
    expect(documentTemplates.nsfc.headingNumbering).toBe('chinese');
    expect(documentTemplates.report.headingNumbering).toBe('decimal');
  });

  it('writes list numbers as Word does, distinct from the heading formats', () => {
    expect([1, 2, 20, 21].map((n) => formatNumber('decimalEnclosedCircle', n))).toEqual(['①', '②', '⑳', '21']);
    expect([1, 26, 27].map((n) => formatNumber('lowerLetter', n))).toEqual(['a', 'z', 'aa']);
    expect([1, 4, 9, 14].map((n) => formatNumber('lowerRoman', n))).toEqual(['i', 'iv', 'ix', 'xiv']);
    expect(levelText(listNumberFormats.chinese, [3])).toBe('③');
    expect(levelText(listNumberFormats.chinese, [3, 2])).toBe('b)');
    expect([[3], [3, 2], [3, 2, 4]].map((c) => levelText(listNumberFormats.nsfc, c))).toEqual(['c)', '2)', 'iv)']);
    // Under 一、（一）1.（1） or （一）1.（1）① headings, no list number reads like a heading label.
    for (const numbering of ['chinese', 'nsfc'] as const) {
      const headingLabels = [1, 2, 3].flatMap((n) => [[n], [1, n], [1, 1, n], [1, 1, 1, n]].map((c) => headingLabel(numbering, c)));
      for (const counters of [[2], [1, 2], [1, 1, 2]]) expect(headingLabels).not.toContain(levelText(listNumberFormats[numbering], counters));
    }
  });

  it('lists the official NSFC 面上/青年 正文 outline, parts at level 1 and their items at level 2', () => {
    const h = (text: string, depth: number): { text: string; depth: number } => ({ text, depth });
    expect(templateOutline('nsfc_general').map((e) => [e.title, e.depth])).toEqual([
      ['立项依据与研究内容', 1],
      ['项目的立项依据', 2],
      ['研究内容', 2],
      ['研究目标', 2],
      ['拟解决的关键科学问题', 2],
      ['拟采取的研究方案及可行性分析', 2],
      ['本项目的特色与创新之处', 2],
      ['年度研究计划及预期研究结果', 2],
      ['研究基础与工作条件', 1],
      ['研究基础', 2],
      ['工作条件', 2],
      ['正在承担的与本项目相关的科研项目情况', 2],
      ['完成国家自然科学基金项目情况', 2],
      ['其他需要说明的情况', 1],
      ['参考文献', undefined],
    ]);
    expect(templateOutline('nsfc_youth')).toBe(templateOutline('nsfc_general'));
    expect(templateOutline('generic')).toEqual([]);
    // The official headings at their levels, in the current wording: nothing missing.
    const official = [
      h('（一）立项依据与研究内容', 1),
      h('1. 项目的立项依据', 2),
      h('2. 研究内容、研究目标，以及拟解决的关键科学问题', 2),
      h('3. 拟采取的研究方案及可行性分析', 2),
      h('4. 本项目的特色与创新之处', 2),
      h('5. 年度研究计划及预期研究结果', 2),
      h('（二）研究基础与工作条件', 1),
      h('1. 研究基础', 2),
      h('2. 工作条件', 2),
      h('3. 正在承担的与本项目相关的科研项目情况', 2),
      h('4. 完成国家自然科学基金项目情况', 2),
      h('（三）其他需要说明的情况', 1),
      h('参考文献', 3),
    ];
    expect(missingOutlineEntries('nsfc_youth', official)).toEqual([]);
    // Older wordings are aliases, at the item level.
    for (const variant of ['年度研究计划与预期研究成果', '年度研究计划及预期研究成果', '年度研究计划']) {
      expect(missingOutlineEntries('nsfc_general', [h(variant, 2)]).map((e) => e.title)).not.toContain('年度研究计划及预期研究结果');
    }
    const older = missingOutlineEntries('nsfc_general', [h('研究目标、研究内容和拟解决的关键科学问题', 2), h('研究方案与可行性分析', 2), h('特色与创新之处', 2)]).map((e) => e.title);
    for (const title of ['研究内容', '研究目标', '拟解决的关键科学问题', '拟采取的研究方案及可行性分析', '本项目的特色与创新之处']) expect(older).not.toContain(title);
    // A heading at another level does not count: a flat `# 立项依据`, a `###` 技术路线 inside it, a `##` part.
    const misplaced = missingOutlineEntries('nsfc_general', [h('立项依据', 1), h('技术路线', 3), h('研究基础与工作条件', 2)]).map((e) => e.title);
    expect(misplaced).toEqual(expect.arrayContaining(['项目的立项依据', '拟采取的研究方案及可行性分析', '研究基础与工作条件', '立项依据与研究内容']));
  });

  it('keeps the old flat nsfc outline for folders that name it, matched at any level', () => {
    const flat = ['一、立项依据', '研究目标、研究内容和拟解决的关键科学问题', '主要参考文献'].map((text) => ({ text, depth: 1 }));
    expect(missingOutlineEntries('nsfc', flat).map((e) => e.title)).toEqual([
      '拟采取的研究方案及可行性分析',
      '本项目的特色与创新之处',
      '年度研究计划及预期研究结果',
      '研究基础与工作条件',
      '正在承担的与本项目相关的科研项目情况',
      '完成国家自然科学基金项目情况',
      '其他需要说明的情况',
    ]);
    expect(templateOutline('nsfc').every((e) => e.depth === undefined)).toBe(true);
    expect(normalizeHeading('（一） 研究背景：')).toBe('研究背景');
    expect(isReferencesHeading('References')).toBe(true);
    expect(isReferencesHeading('参考文献')).toBe(true);
    expect(isReferencesHeading('研究基础')).toBe(false);
  });
});

describe('fonts and text metrics', () => {
  it('names a CJK face in every role and the right East Asian language', () => {
    expect(fontSet('body', 'zh-CN')).toEqual({ ascii: 'Times New Roman', hAnsi: 'Times New Roman', eastAsia: 'SimSun', cs: 'Times New Roman' });
    expect(fontSet('heading', 'en').eastAsia).toBe('SimHei');
    expect(fontSet('body', 'ja').eastAsia).toBe('MS Mincho');
    expect(eastAsianLanguage('zh-TW')).toBe('zh-TW');
    expect(runLanguage('zh-CN')).toEqual({ value: 'en-US', eastAsia: 'zh-CN' });
    expect(runLanguage('en')).toEqual({ value: 'en-US', eastAsia: 'zh-CN' });
  });

  it('counts Han characters and words separately, and joins soft breaks per script', () => {
    expect(countCjkChars('低资源 Document AI，文档。')).toBe(5);
    expect(countWords('低资源 Document AI，LayoutLMv3 模型 F1 值')).toBe(4);
    expect(joinSoftBreaks('中文\n继续')).toBe('中文继续');
    expect(joinSoftBreaks('English\nwords')).toBe('English words');
    expect(joinSoftBreaks('中文\nEnglish')).toBe('中文 English');
  });

  it('estimates more pages for more text', () => {
    const geometry = pageGeometry(documentTemplates.nsfc);
    const para = (n: number) => ({ kind: 'text' as const, text: '字'.repeat(n), sizePt: 12, lineSpacing: 1.5, indentTwips: 0, spacingTwips: 0 });
    expect(estimatePages([para(100)], 3, geometry, 12)).toBe(3); // cover + contents + one body page
    // ~36 lines of 23 characters per page at 12 pt, 1.5 lines: 10 pages of text.
    const tenPages = estimatePages(Array.from({ length: 100 }, () => para(23 * 3.5)), 3, geometry, 12);
    expect(tenPages).toBeGreaterThanOrEqual(10);
    expect(tenPages).toBeLessThanOrEqual(14);
  });
});
