import { describe, expect, it } from 'vitest';
import { findFigures, isCaptionStart, type PageLayout, type TextLine } from './analyze';
import { joinLines } from './layout';

const line = (text: string, x: number, y: number, w = 200, h = 10): TextLine => ({ text, x, y, w, h });
const page = (over: Partial<PageLayout>): PageLayout => ({ page: 1, width: 600, height: 800, images: [], paths: [], lines: [], ...over });

describe('captions', () => {
  it.each([
    ['Figure 3. Results', true],
    ['Fig. 2: Market share', true],
    ['FIGURE 4 — Overview', true],
    ['Figure 1.2. Nested numbering', true],
    ['图 3 系统架构', true],
    ['图3：流程', true],
    ['圖 5 結構', true],
    ['Figure 3 shows the growth', false],
    ['Figures 3 and 4', false],
    ['图3显示了增长', false],
    ['Table 2. Costs', false],
  ])('"%s" starts a caption: %s', (text, expected) => {
    expect(isCaptionStart(text)).toBe(expected);
  });
});

describe('findFigures', () => {
  const image = { x: 100, y: 100, w: 300, h: 200, pxWidth: 600, pxHeight: 400 };

  it('gives an image the caption below it before one above it, and continues a caption onto the next line', () => {
    const layout = page({
      images: [image],
      lines: [line('Figure 1. Above the image', 100, 80), line('Figure 2. Below the image,', 100, 305), line('second line of it', 100, 316), line('Body text starts here after a gap', 100, 350)],
    });
    const found = findFigures(layout);
    expect(found.images[0]?.caption).toBe('Figure 2. Below the image, second line of it');
    // Figure 1 is nobody's and has nothing drawn near it.
    expect(found.orphanCaptions).toEqual(['Figure 1. Above the image']);
  });

  it('does not pair a caption with an image in another column', () => {
    const layout = page({ images: [{ ...image, x: 320, w: 250 }], lines: [line('Figure 1. Left column', 30, 305, 200)] });
    expect(findFigures(layout).images[0]?.caption).toBeNull();
  });

  it('finds a drawn figure above a caption no image claims, with its labels, and stops at body text gaps', () => {
    const layout = page({
      // An icon next to the caption must not claim it.
      images: [{ x: 80, y: 420, w: 10, h: 10, pxWidth: 16, pxHeight: 16 }],
      paths: [
        { x: 0, y: 0, w: 600, h: 800 }, // page background
        { x: 100, y: 60, w: 400, h: 2 }, // a rule under the running head, far above
        { x: 120, y: 250, w: 2, h: 150 }, // y axis
        { x: 120, y: 400, w: 300, h: 1 }, // x axis
        { x: 150, y: 300, w: 40, h: 100 }, // bars
        { x: 250, y: 240, w: 40, h: 160 },
      ],
      lines: [line('Body paragraph above the chart.', 100, 200, 400), line('2021', 140, 404, 30, 8), line('Figure 7. Sales by year', 150, 420)],
    });
    const { drawings, orphanCaptions } = findFigures(layout);
    expect(orphanCaptions).toEqual([]);
    expect(drawings).toHaveLength(1);
    const d = drawings[0];
    expect(d?.caption).toBe('Figure 7. Sales by year');
    // The axes and bars (x 120-420, y 240-401) and the "2021" label, padded by 4 pt; not the rule or the body text.
    expect(d?.x).toBe(116);
    expect(d?.y).toBe(236);
    expect((d?.x ?? 0) + (d?.w ?? 0)).toBe(424);
    expect((d?.y ?? 0) + (d?.h ?? 0)).toBe(416);
  });
});

describe('joinLines', () => {
  it('joins runs on one baseline, spacing Latin words but not CJK, and breaks at new baselines', () => {
    const run = (str: string, x: number, baseline: number, width: number, eol = false) => ({ str, x, baseline, size: 10, width, eol });
    const lines = joinLines([run('Figure', 100, 300, 30), run('3.', 134, 300, 8), run('图', 100, 320, 10), run('3', 110, 320, 5), run('结构', 115, 320, 20, true), run('next', 100, 321, 20)]);
    expect(lines.map((l) => l.text)).toEqual(['Figure 3.', '图3结构', 'next']);
    expect(lines[0]).toMatchObject({ x: 100, y: 292, w: 42, h: 10 });
  });
});
