import { describe, it, expect } from 'vitest';
import { latinBracketsHalfWidth, meetsAtCjkLatinGap, withoutTypedCjkGaps } from './deck-text';

describe('withoutTypedCjkGaps', () => {
  it('takes out spaces typed between Chinese and Latin letters, digits and ASCII marks', () => {
    expect(withoutTypedCjkGaps('基于 Transformer 的方法')).toBe('基于Transformer的方法');
    expect(withoutTypedCjkGaps('每年超过 300 万篇，LLM  擅长摘要')).toBe('每年超过300万篇，LLM擅长摘要');
    expect(withoutTypedCjkGaps('引用不可追溯 (no traceable citations)')).toBe('引用不可追溯(no traceable citations)');
    expect(withoutTypedCjkGaps('Folio Lab · 研究组会报告')).toBe('Folio Lab ·研究组会报告');
    expect(withoutTypedCjkGaps('图\u00A01：流程')).toBe('图1：流程');
  });

  it('keeps spaces between Latin words, between Chinese words, around dashes and curly quotes, and in Korean', () => {
    expect(withoutTypedCjkGaps('no traceable citations')).toBe('no traceable citations');
    expect(withoutTypedCjkGaps('方法 — 结果')).toBe('方法 — 结果');
    expect(withoutTypedCjkGaps('他说 “好” 吧')).toBe('他说 “好” 吧');
    expect(withoutTypedCjkGaps('中文 中文')).toBe('中文 中文');
    expect(withoutTypedCjkGaps('한국어 text')).toBe('한국어 text');
    expect(withoutTypedCjkGaps('第\u3000A')).toBe('第\u3000A');
  });

  it('reads characters outside the BMP whole', () => {
    expect(withoutTypedCjkGaps('𠀀 A')).toBe('𠀀A');
    expect(withoutTypedCjkGaps('😀 A')).toBe('😀 A');
  });

  it('pairs the scripts LibreOffice puts its gap between', () => {
    expect(meetsAtCjkLatinGap('于', 'T')).toBe(true);
    expect(meetsAtCjkLatinGap('0', '万')).toBe(true);
    expect(meetsAtCjkLatinGap('，', 'L')).toBe(true);
    expect(meetsAtCjkLatinGap('—', 'A')).toBe(false);
    expect(meetsAtCjkLatinGap('a', 'b')).toBe(false);
  });
});

describe('latinBracketsHalfWidth', () => {
  it('writes full-width brackets that hold only Latin text as ASCII parentheses, and leaves the others', () => {
    expect(latinBracketsHalfWidth('文档数量（chunks）')).toBe('文档数量(chunks)');
    expect(latinBracketsHalfWidth('延迟（P95, ms）对比')).toBe('延迟(P95, ms)对比');
    expect(latinBracketsHalfWidth('延迟（第 95 百分位）')).toBe('延迟（第 95 百分位）');
    expect(latinBracketsHalfWidth('（）')).toBe('（）');
    expect(latinBracketsHalfWidth('Latency (ms)')).toBe('Latency (ms)');
  });
});
