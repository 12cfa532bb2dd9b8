// A cell's printed text: what the column widths are chosen for.
import { describe, expect, it } from 'vitest';
import { citationLooks } from '../../../shared/specs/document-citations';
import { printedCell } from './cell-text';
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

  it('leaves the text as typed when the document has no citations', () => {
    expect(printedCell('XFUND [@xu2022] 与 12 个服务', false, undefined)).toEqual({ text: 'XFUND [@xu2022]与12个服务', bold: false });
  });
});
