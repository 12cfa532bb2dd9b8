import { describe, expect, it } from 'vitest';
import { type PlacedRun } from '../deck/verify/pdf-words';
import { leadingRun, tightLineCompressions } from './tight-lines';

// An NSFC page (A4, 31.8 mm side margins) in points, 12 pt body text, as pdfjs reads LibreOffice's PDF.
const BOX = { left: 90.3, right: 505.15, top: 72, bottom: 770 };
const SIZE = 12;
const CJK = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u;
/** Chinese characters a full em, Latin ones 0.69 em (XFUND is 41.3 pt in Times New Roman). */
const widthOf = (text: string, sizePt: number): number => [...text].reduce((w, c) => w + (CJK.test(c) ? sizePt : 0.688 * sizePt), 0);
const run = (str: string, x: number, width: number, baseline: number, size = SIZE): PlacedRun => ({ str, x, width, baseline, size });

/** The stress proposal's line before XFUND as LibreOffice spread it: 2.1 pt after each of its 21 units. */
const spreadLine = (baseline: number): PlacedRun[] => [
  run('mented Generation', 90.3, 93.6, baseline),
  run('） 在 少 量 样', 186, 68.16, baseline),
  run('例', 256.2, 12, baseline),
  run('上', 270.3, 12, baseline),
  run('快 速 收 敛', 284.3, 54.3, baseline),
  run('。 我 们 在', 340.5, 54.3, baseline),
  run('FUNSD', 399.8, 39.32, baseline),
  run('、', 441.2, 12, baseline),
  run('CORD', 455.3, 33.25, baseline),
  run('与', 493.1, 12, baseline),
];
const LINE = 'mentedGeneration）在少量样例上快速收敛。我们在FUNSD、CORD与';

describe('letter-spaced justified lines and the marks that make room', () => {
  it('sets as few of the line’s marks half width as pull the acronym after it up, nearest the line end first', () => {
    const page = [...spreadLine(100), run('XFUND', 90.3, 41.3, 126), run('数据集上的初步实验表明', 134.1, 132, 126)];
    expect(tightLineCompressions([page], BOX, widthOf)).toEqual([{ text: `${LINE}XFUND`, occurrence: 0, of: 1, offsets: [LINE.indexOf('、')] }]);
  });

  it('leaves a line alone when even all its marks would not make room, when it is not spread, or when it ends short of the edge', () => {
    const tooWide = [...spreadLine(100), run('XFUNDXFUNDX', 90.3, 90, 126)];
    expect(tightLineCompressions([tooWide], BOX, widthOf)).toEqual([]);
    const natural = [run('我们在少量样例上快速收敛我们在少量样例上快速收敛我们在少量样例上', 90.3, 414.85, 100), run('XFUND', 90.3, 41.3, 126)];
    expect(tightLineCompressions([natural], BOX, widthOf)).toEqual([]);
    const short = [...spreadLine(100).slice(0, -1), run('XFUND', 90.3, 41.3, 126)];
    expect(tightLineCompressions([short], BOX, widthOf)).toEqual([]);
  });

  it('compresses the opening bracket of the run first, and counts the text’s earlier appearances', () => {
    const page = [...spreadLine(100), run('（', 90.3, 12, 126), run('XFUND', 105, 41.3, 126), ...spreadLine(300), run('（', 90.3, 12, 326), run('XFUND', 105, 41.3, 326)];
    const [first, second] = tightLineCompressions([page], BOX, widthOf);
    expect(first).toEqual({ text: `${LINE}（XFUND`, occurrence: 0, of: 2, offsets: expect.arrayContaining([LINE.length]) as number[] });
    expect(second).toMatchObject({ occurrence: 1, of: 2 });
  });

  it('moves a line’s first character up when the line before can make room for it, where the line’s own marks are not enough', () => {
    // "Augmented" after "Retrieval-" needs 13.9 pt more than the line has, its two marks give 12: the line before,
    // 6.85 pt short of another character, gives the rest with its comma.
    const widths: Record<string, number> = { Augmented: 56.2, 'Retrieval-': 48 };
    const measure = (text: string, sizePt: number): number => widths[text] ?? widthOf(text, sizePt);
    const before = `${'甲'.repeat(30)}，${'乙'.repeat(3)}`;
    const tight = '次离线预训练。小样本适配则借助提示学习与检索增强生成（';
    const spreadRun = (text: string, x: number, baseline: number, gap: number): PlacedRun => run(text, x, [...text].length * SIZE + ([...text].length - 1) * gap, baseline);
    const beforeGap = (414.85 - 34 * SIZE) / 33;
    const tightGap = (414.85 - 27 * SIZE - 48) / 27;
    const page = [
      spreadRun(before, 90.3, 100, beforeGap),
      spreadRun(tight, 90.3, 126, tightGap),
      run('Retrieval-', 505.15 - 48, 48, 126),
      run('Augmented Generation）在少量', 90.3, 150, 152),
    ];
    expect(tightLineCompressions([page], BOX, measure)).toEqual([
      { text: `${before}次`, occurrence: 0, of: 1, offsets: [30] },
      { text: `${tight}Retrieval-Augmented`, occurrence: 0, of: 1, offsets: [26] },
    ]);
    // The first line of a paragraph (indented) has no line before it in the paragraph.
    const indented = page.map((r) => (r.baseline === 126 && r.x === 90.3 ? { ...r, x: 114.3 } : r));
    expect(tightLineCompressions([indented], BOX, measure)).toEqual([]);
  });

  it('takes the run after a line up to its first break', () => {
    expect(leadingRun('XFUND 数据集')).toBe('XFUND');
    expect(leadingRun('（ Retrieval-Augmented Generation')).toBe('（Retrieval-');
    expect(leadingRun('Augmented Generation）在')).toBe('Augmented');
    expect(leadingRun('（https://example.org/benchmark')).toBe('（https://');
  });
});
