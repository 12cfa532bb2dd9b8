import { describe, expect, it } from 'vitest';
import { inheritBodyStyle } from './inherit';

const run = (text: string, size: number, colour: string, face = 'Verdana'): string =>
  `<a:r><a:rPr lang="en-US" sz="${size}" dirty="0"><a:solidFill><a:srgbClr val="${colour}"/></a:solidFill><a:latin typeface="${face}"/><a:ea typeface="${face}"/><a:cs typeface="${face}"/></a:rPr><a:t>${text}</a:t></a:r>`;
const para = (pPr: string, r: string): string => `<a:p><a:pPr algn="l" ${pPr}><a:lnSpc><a:spcPts val="3120"/></a:lnSpc><a:spcAft><a:spcPts val="800"/></a:spcAft><a:buChar char="&#x2022;"/></a:pPr>${r}</a:p>`;
const shape = (name: string, paragraphs: string): string =>
  `<p:sp><p:nvSpPr><p:cNvPr id="3" name="${name}"></p:cNvPr><p:cNvSpPr/><p:nvPr></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr wrap="square" lIns="0" anchor="t"></a:bodyPr><a:lstStyle/>${paragraphs}</p:txBody></p:sp>`;
const style = { color: '1F3B2D', sizePt: 24, face: 'Verdana', align: 'left' as const };

describe('body text on a template layout', () => {
  const slide = `<p:spTree>${shape('body', para('marL="406400" indent="-406400"', run('Revenue up', 2400, '1F3B2D')) + para('lvl="1" marL="736600"', run('a sub point', 2400, '595959')) + para('marL="406400"', run('Shrunk', 2000, 'AA0000')))}${shape('left', para('', run('x', 2400, '1F3B2D')))}</p:spTree>`;
  const out = inheritBodyStyle(slide, style, '13');

  it('becomes the layout\'s body placeholder and leaves to it what its style gives alike', () => {
    expect(out).toContain('<p:nvPr><p:ph type="body" idx="13"/></p:nvPr>');
    const first = /<a:r>.*?Revenue up/.exec(out)?.[0] ?? '';
    expect(first).not.toMatch(/sz=|solidFill|latin|algn/);
  });

  it('keeps what Folio chose differently, and a sub-bullet\'s size (level 2 has its own)', () => {
    expect(/<a:r>(?:(?!<a:r>).)*?Shrunk/.exec(out)?.[0]).toMatch(/sz="2000".*AA0000/);
    const sub = /<a:r>(?:(?!<a:r>).)*?a sub point/.exec(out)?.[0] ?? '';
    expect(sub).toMatch(/sz="2400"/);
    expect(sub).toMatch(/595959/);
  });

  it('writes the spacing it was fitted with: no space before, no autofit from the layout', () => {
    expect(out.match(/<a:spcBef><a:spcPts val="0"\/><\/a:spcBef>/g)).toHaveLength(3);
    expect(out).toMatch(/<a:lnSpc><a:spcPts val="3120"\/><\/a:lnSpc><a:spcBef>/);
    expect(out).toContain('anchor="t"><a:noAutofit/></a:bodyPr>');
  });

  it('marks only the shape it is asked for', () => {
    expect(out).toMatch(/name="left"><\/p:cNvPr><p:cNvSpPr\/><p:nvPr><\/p:nvPr>/);
    expect(inheritBodyStyle(out, style, '14', 'left')).toContain('<p:ph type="body" idx="14"/>');
  });
});
