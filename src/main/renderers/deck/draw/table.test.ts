import { describe, expect, it } from 'vitest';
import { BUILTIN_THEMES } from '../../../../shared/specs/themes';
import { planTable } from '../plan/table';
import { tableMeasurer } from '../../typesetting/fonts';

import { drawTable } from './table';
import { drawContext, partText, writeDeck } from './test-support';

const theme = BUILTIN_THEMES[1];

describe('drawTable', () => {
  it('writes the planned column widths, right-aligned numbers and the theme header fill', async () => {
    const [el] = planTable({ theme, measurer: tableMeasurer }, { header: ['Method', 'Recall', '方法说明'], rows: [['BM25', '61%', '词面检索'], ['Dense', '74%', '语义检索']] }, { x: 0.6, y: 1.7, w: 12, h: 5 });
    const ctx = drawContext(theme);
    drawTable(ctx, el);
    const { zip } = await writeDeck(ctx);
    const xml = await partText(zip, 'ppt/slides/slide1.xml');
    const grid = Array.from(xml.matchAll(/<a:gridCol w="(\d+)"/g), (m) => Number(m[1]) / 914400);
    expect(grid).toHaveLength(3);
    grid.forEach((w, i) => expect(w).toBeCloseTo(el.colWidths[i], 2));
    const rows = Array.from(xml.matchAll(/<a:tr\b[\s\S]*?<\/a:tr>/g), (m) => m[0]);
    expect(rows).toHaveLength(3);
    const cells = (row: string): string[] => Array.from(row.matchAll(/<a:tc\b[\s\S]*?<\/a:tc>/g), (m) => m[0]);
    const recall = cells(rows[1])[1];
    expect(recall).toContain('algn="r"');
    expect(cells(rows[1])[0]).not.toContain('algn="r"');
    expect(cells(rows[0])[0]).toContain(`<a:srgbClr val="${theme.palette.tableHeader}"`);
    // CJK cells carry the CJK face.
    expect(cells(rows[1])[2]).toContain(theme.fonts.cjkBody);
  });

  it("pads cells by the plan's vertical padding (a short table's roomier rows), as the preview does", async () => {
    const [el] = planTable({ theme, measurer: tableMeasurer }, { header: ['Method', 'Recall'], rows: [['BM25', '61%'], ['Dense', '74%']] }, { x: 0.6, y: 1.7, w: 12, h: 5 });
    expect(el.cellPadY).toBeGreaterThan(0.05);
    const ctx = drawContext(theme);
    drawTable(ctx, el);
    const xml = await partText((await writeDeck(ctx)).zip, 'ppt/slides/slide1.xml');
    const tops = Array.from(xml.matchAll(/<a:tcPr[^>]*\bmarT="(\d+)"/g), (m) => Number(m[1]) / 914400);
    expect(tops).toHaveLength(6);
    for (const t of tops) expect(t).toBeCloseTo(el.cellPadY ?? 0, 4);
  });
});
