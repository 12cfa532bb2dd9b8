// The numbers Word prints before numbered paragraphs, counted from numbering.xml and styles.xml as
// Word counts them: through a Heading style linked to a list level, a list's own numPr, restarts.
import { DOMParser, type Element } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { formatCounter, listNumbering } from './list-numbers';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

const numbering = `<w:numbering ${W}>
  <w:abstractNum w:abstractNumId="1">
    <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="chineseCounting"/><w:lvlText w:val="%1、"/><w:suff w:val="nothing"/><w:pStyle w:val="Heading1"/></w:lvl>
    <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="chineseCounting"/><w:lvlText w:val="（%2）"/><w:suff w:val="nothing"/><w:pStyle w:val="Heading2"/></w:lvl>
    <w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%3."/><w:suff w:val="space"/><w:pStyle w:val="Heading3"/></w:lvl>
  </w:abstractNum>
  <w:abstractNum w:abstractNumId="2">
    <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimalEnclosedCircle"/><w:lvlText w:val="%1"/></w:lvl>
  </w:abstractNum>
  <w:abstractNum w:abstractNumId="3">
    <w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl>
  </w:abstractNum>
  <w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num>
  <w:num w:numId="2"><w:abstractNumId w:val="2"/></w:num>
  <w:num w:numId="3"><w:abstractNumId w:val="2"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>
  <w:num w:numId="4"><w:abstractNumId w:val="3"/></w:num>
</w:numbering>`;

// Heading 1–3 take their list from the styles (Heading 3 through its own basedOn chain, without a level).
const styles = `<w:styles ${W}>
  <w:style w:type="paragraph" w:styleId="Heading1"><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr></w:style>
  <w:style w:type="paragraph" w:styleId="Heading2"><w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="1"/></w:numPr></w:pPr></w:style>
  <w:style w:type="paragraph" w:styleId="HeadingBase"><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style>
  <w:style w:type="paragraph" w:styleId="Heading3"><w:basedOn w:val="HeadingBase"/></w:style>
</w:styles>`;

function paragraphs(xml: string): Element[] {
  return Array.from(new DOMParser().parseFromString(`<w:body ${W}>${xml}</w:body>`, 'text/xml').getElementsByTagName('w:p'));
}

const styled = (style: string) => `<w:p><w:pPr><w:pStyle w:val="${style}"/></w:pPr></w:p>`;
const listed = (numId: number, ilvl = 0) => `<w:p><w:pPr><w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="${numId}"/></w:numPr></w:pPr></w:p>`;

describe('listNumbering', () => {
  it('numbers headings through their styles and lists through their own numbers, restarting where Word restarts', () => {
    const labelOf = listNumbering(numbering, styles);
    const body = [
      styled('Heading1'),
      styled('Heading2'),
      styled('Heading3'),
      '<w:p/>',
      listed(2),
      listed(2),
      styled('Heading2'),
      // A second list instance of the same definition with a start override starts again at ①.
      listed(3),
      listed(4),
      // numId 0 takes a styled paragraph out of its list.
      '<w:p><w:pPr><w:pStyle w:val="Heading1"/><w:numPr><w:numId w:val="0"/></w:numPr></w:pPr></w:p>',
      styled('Heading1'),
      styled('Heading2'),
    ].join('');
    expect(paragraphs(body).map((p) => labelOf(p))).toEqual(['一、', '（一）', '1. ', null, '① ', '② ', '（二）', '① ', '• ', null, '二、', '（一）']);
  });

  it('writes the formats Word documents use', () => {
    expect(formatCounter('upperRoman', 4)).toBe('IV');
    expect(formatCounter('ideographTraditional', 3)).toBe('丙');
    expect(formatCounter('decimalZero', 7)).toBe('07');
    expect(formatCounter('chineseLegalSimplified', 2)).toBe('贰');
    expect(formatCounter('decimalFullWidth', 12)).toBe('１２');
    expect(formatCounter('somethingNew', 5)).toBe('5');
  });

  it('gives nothing for a document without numbering', () => {
    expect(listNumbering(null, null)(paragraphs(listed(1))[0])).toBeNull();
  });
});
