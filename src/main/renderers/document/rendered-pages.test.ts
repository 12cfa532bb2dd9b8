import { describe, expect, it } from 'vitest';
import { documentTemplates } from '../../../shared/specs/document';
import { type RenderedPage, type RenderedWord } from '../deck/verify/pdf-words';
import { tokenize } from '../deck/verify/tokens';
import { pageGeometry } from './geometry';
import { layOutPages, placeHeadings } from './rendered-pages';

const geometry = pageGeometry(documentTemplates.nsfc);
// NSFC: 72 pt top and bottom margins on an 842 pt page.
const FOOTER = 800;
const HEADER = 50;

/** One line of words at a baseline, as the PDF reader gives them. */
function line(text: string, baseline: number, x = 90): RenderedWord[] {
  return tokenize(text).map((t, i) => ({ key: t.key, text: t.text, x: x + i * 12, y: baseline - 10, w: 12, h: 12, baseline, size: 12, run: 0 }));
}
const page = (...lines: RenderedWord[][]): RenderedPage => ({ words: lines.flat() });

const cover = page(line('面向低资源场景的文档智能理解', 300));
const contents = page(line('目录', 100), line('一、立项依据 1', 130), line('二、研究目标 2', 160), line('ii', FOOTER));
const body1 = page(line('面向低资源场景…', HEADER), line('一、立项依据', 100), line('正文提到研究目标。', 130), line('第 1 页', FOOTER));
const body2 = page(line('面向低资源场景…', HEADER), line('续文', 100), line('二、研究目标', 400), line('第 2 页', FOOTER));

describe('layOutPages', () => {
  it('numbers body pages from their footers and leaves the cover and roman-numbered contents out', () => {
    const pages = layOutPages([cover, contents, body1, body2], geometry);
    expect(pages.map((p) => p.bodyNumber)).toEqual([null, null, 1, 2]);
    expect(pages[2]?.headerLines).toBe(1);
    // The header and footer are not body text.
    expect(pages[2]?.tokens.map((t) => t.key).join('')).toBe('一立项依据正文提到研究目标');
    expect(pages[3]?.lastBaseline).toBe(400);
  });

  it('counts the lines of a header that wraps', () => {
    const wrapped = page(line('很长的标题第一行', 30), line('第二行', 50), line('第 1 页', FOOTER));
    expect(layOutPages([wrapped], geometry)[0]?.headerLines).toBe(2);
  });
});

describe('placeHeadings', () => {
  const pages = layOutPages([cover, contents, body1, body2], geometry);

  it('finds each heading on the body pages in order, never in the contents', () => {
    const places = placeHeadings(pages, [{ title: '一、立项依据' }, { title: '二、研究目标' }]);
    expect(places).toEqual([
      { pdfPage: 2, bodyPage: 1, baseline: 100 },
      // "研究目标" in the prose of page 1 is not the heading: the number is part of what is searched.
      { pdfPage: 3, bodyPage: 2, baseline: 400 },
    ]);
  });

  it('falls back to the text without its number, and gives null for a heading that is not there', () => {
    const places = placeHeadings(pages, [{ title: '1. 立项依据', text: '立项依据' }, { title: '九、不存在' }, { title: '二、研究目标' }]);
    expect(places.map((p) => p?.bodyPage ?? null)).toEqual([1, null, 2]);
  });
});
