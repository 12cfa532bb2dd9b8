import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { parseXml, type Relationship } from './ooxml';
import { tableStyleOf } from './table-style';

const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';
const style = (id: string, header: string): string =>
  `<a:tblStyle styleId="${id}" styleName="Style ${id}"><a:wholeTbl><a:tcTxStyle><a:fontRef idx="minor"><a:prstClr val="black"/></a:fontRef><a:schemeClr val="dk1"/></a:tcTxStyle></a:wholeTbl>` +
  `<a:firstRow><a:tcTxStyle b="on"><a:schemeClr val="lt1"/></a:tcTxStyle><a:tcStyle><a:fill><a:solidFill><a:srgbClr val="${header}"/></a:solidFill></a:fill></a:tcStyle></a:firstRow></a:tblStyle>`;
const scheme = { dk1: '111111', lt1: 'FAFAFA', accent1: '3366CC' };
const map = { tx1: 'dk1', bg1: 'lt1' };

async function read(list: string, slideXml?: string, layoutXml = '<p:sldLayout xmlns:p="x"/>'): Promise<ReturnType<typeof tableStyleOf>> {
  const zip = new JSZip();
  zip.file('ppt/tableStyles.xml', `<?xml version="1.0"?>${list}`);
  const rels: Relationship[] = [{ id: 'rId7', type: `${REL}tableStyles`, target: 'ppt/tableStyles.xml', external: false }];
  if (slideXml) {
    zip.file('ppt/slides/slide1.xml', slideXml);
    rels.push({ id: 'rId2', type: `${REL}slide`, target: 'ppt/slides/slide1.xml', external: false });
  }
  return tableStyleOf(zip, rels, [parseXml(layoutXml, 'layout')], scheme, map);
}

describe('the table style a template defines', () => {
  it('reads the default style: header fill, header and body text through the scheme (a text style\'s own colour over its font reference\'s)', async () => {
    expect(await read(`<a:tblStyleLst ${A} def="{A}">${style('{A}', '00704A')}</a:tblStyleLst>`)).toEqual({ name: 'Style {A}', headerFill: '00704A', headerText: 'FAFAFA', bodyText: '111111' });
  });

  it('prefers the style a table in a sample slide or a layout uses over the list\'s default', async () => {
    const list = `<a:tblStyleLst ${A} def="{A}">${style('{A}', '00704A')}${style('{B}', '5A2D82')}</a:tblStyleLst>`;
    const table = `<p:sld xmlns:p="x" ${A}><a:tbl><a:tblPr><a:tableStyleId>{B}</a:tableStyleId></a:tblPr></a:tbl></p:sld>`;
    expect((await read(list, table))?.headerFill).toBe('5A2D82');
    expect((await read(list, undefined, table))?.headerFill).toBe('5A2D82');
  });

  it('gives nothing when the default is one of PowerPoint\'s built-in styles (named by id only)', async () => {
    expect(await read(`<a:tblStyleLst ${A} def="{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}"/>`)).toBeUndefined();
  });

  it('lightens and darkens scheme colours as table styles write them (tint, shade)', async () => {
    const tinted = `<a:tblStyleLst ${A} def="{T}"><a:tblStyle styleId="{T}" styleName="T"><a:firstRow><a:tcStyle><a:fill><a:solidFill><a:schemeClr val="accent1"><a:tint val="40000"/></a:schemeClr></a:solidFill></a:fill></a:tcStyle></a:firstRow>` +
      `<a:band1H><a:tcStyle><a:fill><a:solidFill><a:schemeClr val="accent1"><a:shade val="50000"/></a:schemeClr></a:solidFill></a:fill></a:tcStyle></a:band1H></a:tblStyle></a:tblStyleLst>`;
    const got = await read(tinted);
    // 40 % of #3366CC, the rest white; half of it toward black.
    expect(got?.headerFill).toBe('ADC2EB');
    expect(got?.bandFill).toBe('1A3366');
  });
});
