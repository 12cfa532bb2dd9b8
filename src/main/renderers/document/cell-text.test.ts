// A cell's printed text: what the column widths are chosen for.
import { describe, expect, it } from 'vitest';
import { citationLooks } from '../../../shared/specs/document-citations';
import { printedCell, printedEms } from './cell-text';
import { type CitationState } from './context';

const citations = (style: keyof typeof citationLooks): CitationState => ({
  look: citationLooks[style],
  numbers: new Map([
    ['xu2022', 5],
    ['kim2022', 6],
    ['park2019', 7],
  ]),
  references: [],
  hasBibliography: true,
  written: false,
});

describe('a table cell as printed', () => {
  it('writes each citation as its number, a superscript in GB/T 7714', () => {
    // The typed space after a Latin word stays, as the paragraph prints it; those beside the Chinese go.
    expect(printedCell('XFUND [@xu2022]、自建 10 000 条数据', false, citations('gb-t-7714-2015'))).toEqual({ text: 'XFUND [5]、自建10\u202F000条数据', bold: false, superscripts: [[6, 9]] });
    expect(printedCell('见[@kim2022; @xu2022; @park2019]', false, citations('gb-t-7714-2015'))).toEqual({ text: '见[5-7]', bold: false, superscripts: [[1, 6]] });
  });

  it('keeps a Vancouver citation in the line, and an unknown key as "?"', () => {
    expect(printedCell('见 [@xu2022]', true, citations('vancouver'))).toEqual({ text: '见[5]', bold: true });
    expect(printedCell('见 [@nobody]', false, citations('gb-t-7714-2015'))).toEqual({ text: '见[?]', bold: false, superscripts: [[1, 4]] });
  });

  it('writes each cross-reference as its caption label, several joined as the text joins them', () => {
    const references = { label: (id: string) => (id === 'tbl:data' ? '表 1' : id === 'fig:frame' ? '图 2' : '表 ??'), separator: '、' };
    expect(printedCell('见 [@tbl:data] 与 [@xu2022]', false, citations('gb-t-7714-2015'), references)).toEqual({ text: '见表 1与[5]', bold: false, superscripts: [[5, 8]] });
    expect(printedCell('[@tbl:data; @fig:frame]、@tbl:none', false, undefined, references)).toEqual({ text: '表 1、图 2、表 ??', bold: false });
  });

  it('counts a superscript citation at its smaller size in the ems a column is allotted', () => {
    expect(printedEms({ text: '见[5]', bold: false, superscripts: [[1, 4]] })).toBeCloseTo(1 + 1.5 * 0.58);
    expect(printedEms({ text: '见[5]', bold: false })).toBe(2.5);
  });

  it('leaves the text as typed when the document has no citations', () => {
    expect(printedCell('XFUND [@xu2022] 与 12 个服务', false, undefined)).toEqual({ text: 'XFUND [@xu2022]与12个服务', bold: false });
  });
});
