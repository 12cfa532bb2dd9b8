// Three company templates shaped like real ones, built in the test (no PowerPoint here): pptxgenjs
// writes the masters and placeholders, then the XML is patched the way brand teams set them up: a
// title style on the master (colour, size, face), title placeholders anchored in a coloured bar,
// a full-bleed dark master, a title band along the bottom, a logo, the master's own footer line.
import JSZip from 'jszip';
import PptxGenJS from 'pptxgenjs';
import { FIXTURE } from './fixture.test-support';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface BrandTemplate {
  key: string;
  name: string;
  /** The content layout's background, and the title layout's. */
  background: string;
  heroBackground: string;
  /** A filled shape on the content layout behind the title (a bar or a band). */
  band?: { box: Box; color: string };
  title: Box;
  titleColor: string;
  heroTitleColor: string;
  titleSizePt: number;
  /** The theme's heading face (the title style says +mj-lt). */
  headingFont: string;
  bodyFont: string;
  anchor: 't' | 'ctr' | 'b';
  body: Box;
  /** The master's body text style, level 1. */
  bodyColor: string;
  bodySizePt: number;
  /** The master's bullets, levels 1 and 2: the character and where the text starts (inches from the box's edge). */
  bullets: readonly [{ char: string; marginIn: number }, { char: string; marginIn: number }];
  heroTitle: Box;
  /** The title layout's subtitle placeholder (below its title) and the colour it sets. */
  heroSubtitle: Box;
  subtitleColor: string;
  logo: Box;
  /** A two-content layout's two body placeholders, when the template has one. */
  twoContent?: { left: Box; right: Box };
  /** The slide-number placeholder. */
  number?: Box;
  /**
   * The table colours a deck on it should use: the template's own table style when it defines one
   * (`style`, a DrawingML tblStyle made the default), else derived from its title bar.
   */
  table: { headerFill: string; headerText: string; bodyText: string; bodyFill?: string; style?: string };
  /** A line of text the master prints along the bottom edge (its own footer). */
  footerText?: string;
  footerColor?: string;
}

/** Inches on the 13.333 × 7.5 in slide. */
export const BRAND_TEMPLATES: readonly BrandTemplate[] = [
  {
    key: 'bar',
    name: 'Greenfield Bar',
    background: 'FFFFFF',
    heroBackground: '00704A',
    band: { box: { x: 0, y: 0, w: 13.333, h: 1.3 }, color: '00704A' },
    title: { x: 0.5, y: 0.15, w: 10.6, h: 1.0 },
    titleColor: 'FFFFFF',
    heroTitleColor: 'FFFFFF',
    titleSizePt: 32,
    headingFont: 'Georgia',
    bodyFont: 'Verdana',
    anchor: 'ctr',
    body: { x: 0.5, y: 1.6, w: 12.3, h: 5.0 },
    bodyColor: '1F3B2D',
    bodySizePt: 24,
    bullets: [{ char: '▪', marginIn: 0.35 }, { char: '›', marginIn: 0.8 }],
    heroTitle: { x: 1.0, y: 2.4, w: 11.3, h: 1.5 },
    heroSubtitle: { x: 1.0, y: 4.1, w: 11.3, h: 1.0 },
    subtitleColor: 'F2C14E',
    logo: { x: 12.0, y: 6.85, w: 0.9, h: 0.45 },
    number: { x: 11.5, y: 6.9, w: 1.0, h: 0.4 },
    // No table style: the header takes the green its titles sit on, in the slide's white.
    table: { headerFill: '00704A', headerText: 'FFFFFF', bodyText: '1F3B2D' },
  },
  {
    key: 'dark',
    name: 'Midnight Full Bleed',
    background: '14213D',
    heroBackground: '0B1426',
    title: { x: 0.6, y: 0.4, w: 11.0, h: 1.1 },
    titleColor: 'FCA311',
    heroTitleColor: 'FCA311',
    titleSizePt: 36,
    headingFont: 'DejaVu Sans',
    bodyFont: 'DejaVu Sans',
    anchor: 't',
    body: { x: 0.6, y: 1.7, w: 12.1, h: 4.9 },
    bodyColor: 'E5E5E5',
    bodySizePt: 20,
    bullets: [{ char: '›', marginIn: 0.3 }, { char: '–', marginIn: 0.7 }],
    heroTitle: { x: 1.0, y: 2.6, w: 11.3, h: 1.6 },
    heroSubtitle: { x: 1.0, y: 4.4, w: 11.3, h: 1.0 },
    subtitleColor: '8FA3BF',
    logo: { x: 12.1, y: 0.45, w: 0.8, h: 0.4 },
    twoContent: { left: { x: 0.6, y: 1.7, w: 5.8, h: 4.9 }, right: { x: 6.9, y: 1.7, w: 5.8, h: 4.9 } },
    // Its own table style: a header in accent1 shaded to 60 % with accent4 (gold) text, the font
    // reference's black overridden; body rows on a navy fill in a pale blue.
    table: {
      headerFill: '294476',
      headerText: 'FFC000',
      bodyText: 'D6DEEB',
      bodyFill: '1B2A4A',
      style:
        '<a:tblStyle styleId="{7E1A2B3C-0000-4000-8000-00000000D4C1}" styleName="Midnight Table">' +
        '<a:wholeTbl><a:tcTxStyle><a:fontRef idx="minor"><a:prstClr val="black"/></a:fontRef><a:srgbClr val="D6DEEB"/></a:tcTxStyle><a:tcStyle><a:tcBdr/><a:fill><a:solidFill><a:srgbClr val="1B2A4A"/></a:solidFill></a:fill></a:tcStyle></a:wholeTbl>' +
        '<a:band1H><a:tcStyle><a:tcBdr/><a:fill><a:solidFill><a:srgbClr val="22345A"/></a:solidFill></a:fill></a:tcStyle></a:band1H>' +
        '<a:firstRow><a:tcTxStyle b="on"><a:fontRef idx="minor"><a:prstClr val="black"/></a:fontRef><a:schemeClr val="accent4"/></a:tcTxStyle><a:tcStyle><a:tcBdr/><a:fill><a:solidFill><a:schemeClr val="accent1"><a:shade val="60000"/></a:schemeClr></a:solidFill></a:fill></a:tcStyle></a:firstRow>' +
        '</a:tblStyle>',
    },
  },
  {
    key: 'bottom',
    name: 'Northwind Bottom Title',
    background: 'F4F1EA',
    heroBackground: '3D1F5C',
    band: { box: { x: 0, y: 5.75, w: 13.333, h: 1.75 }, color: '3D1F5C' },
    title: { x: 0.6, y: 5.9, w: 12.1, h: 0.95 },
    titleColor: 'FFFFFF',
    heroTitleColor: 'FFFFFF',
    titleSizePt: 28,
    headingFont: 'Trebuchet MS',
    bodyFont: 'DejaVu Sans',
    anchor: 'ctr',
    body: { x: 0.6, y: 0.7, w: 12.1, h: 4.8 },
    bodyColor: '3D1F5C',
    bodySizePt: 22,
    bullets: [{ char: '■', marginIn: 0.4 }, { char: '▪', marginIn: 0.9 }],
    heroTitle: { x: 1.0, y: 2.4, w: 11.3, h: 1.5 },
    heroSubtitle: { x: 1.0, y: 4.1, w: 11.3, h: 1.0 },
    subtitleColor: 'E8C468',
    logo: { x: 0.6, y: 0.15, w: 0.8, h: 0.4 },
    // No table style: the header takes the purple band its titles sit on, in the slide's cream.
    table: { headerFill: '3D1F5C', headerText: 'F4F1EA', bodyText: '3D1F5C' },
    footerText: 'NORTHWIND · INTERNAL',
    footerColor: 'E8E0F0',
  },
];

const EMU = 914400;
const emu = (v: number): number => Math.round(v * EMU);

export async function buildBrandTemplate(t: BrandTemplate): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE';
  pptx.title = t.name;
  const ph = (name: string, type: 'title' | 'body', box: Box) => ({ placeholder: { options: { name, type, ...box }, text: '' } });
  pptx.defineSlideMaster({
    title: `${t.name} Content`,
    background: { color: t.background },
    ...(t.number ? { slideNumber: { ...t.number } } : {}),
    objects: [
      ...(t.band ? [{ rect: { ...t.band.box, fill: { color: t.band.color } } }] : []),
      { image: { ...t.logo, data: `image/png;base64,${FIXTURE.logoPng.toString('base64')}` } },
      ph('title', 'title', t.title),
      ph('body', 'body', t.body),
    ],
  });
  pptx.defineSlideMaster({ title: `${t.name} Title`, background: { color: t.heroBackground }, objects: [ph('title', 'title', t.heroTitle), ph('subtitle', 'body', t.heroSubtitle)] });
  if (t.twoContent) {
    pptx.defineSlideMaster({
      title: `${t.name} Two Content`,
      background: { color: t.background },
      objects: [{ image: { ...t.logo, data: `image/png;base64,${FIXTURE.logoPng.toString('base64')}` } }, ph('title', 'title', t.title), ph('left', 'body', t.twoContent.left), ph('right', 'body', t.twoContent.right)],
    });
  }
  pptx.addSlide({ masterName: `${t.name} Content` });
  const zip = await JSZip.loadAsync(await pptx.write({ outputType: 'nodebuffer' }));
  const edit = async (part: string, f: (xml: string) => string): Promise<void> => {
    const xml = (await zip.file(part)?.async('string')) ?? '';
    const out = f(xml);
    if (out === xml) throw new Error(`the brand template patch changed nothing in ${part}`);
    zip.file(part, out);
  };
  await edit('ppt/theme/theme1.xml', (xml) =>
    xml
      .replace(/(<a:majorFont>\s*)<a:latin typeface="[^"]*"/, `$1<a:latin typeface="${t.headingFont}"`)
      .replace(/(<a:minorFont>\s*)<a:latin typeface="[^"]*"/, `$1<a:latin typeface="${t.bodyFont}"`),
  );
  // The master's title style: left-aligned, the brand's size and colour, the theme's heading face.
  await edit('ppt/slideMasters/slideMaster1.xml', (xml) => {
    let out = xml.replace(
      /<p:titleStyle>\s*<a:lvl1pPr algn="ctr"([^>]*)>([\s\S]*?)<a:defRPr sz="4400" kern="1200"><a:solidFill><a:schemeClr val="tx1"\/><\/a:solidFill>/,
      `<p:titleStyle><a:lvl1pPr algn="l"$1>$2<a:defRPr sz="${t.titleSizePt * 100}" kern="1200"><a:solidFill><a:srgbClr val="${t.titleColor}"/></a:solidFill>`,
    );
    // Body text: the brand's colour and size (bullets and spacing stay pptxgenjs's).
    out = out.replace(
      /(<p:bodyStyle>\s*<a:lvl1pPr[\s\S]*?)<a:defRPr sz="3200" kern="1200"><a:solidFill><a:schemeClr val="tx1"\/><\/a:solidFill>/,
      `$1<a:defRPr sz="${t.bodySizePt * 100}" kern="1200"><a:solidFill><a:srgbClr val="${t.bodyColor}"/></a:solidFill>`,
    );
    // The brand's bullets: its own characters and indents at levels 1 and 2.
    t.bullets.forEach((b, i) => {
      const lvl = new RegExp(`(<p:bodyStyle>[\\s\\S]*?<a:lvl${i + 1}pPr) marL="\\d+" indent="-\\d+"([\\s\\S]*?)<a:buChar char="[^"]*"/>`);
      const patched = out.replace(lvl, `$1 marL="${emu(b.marginIn)}" indent="-${emu(Math.min(b.marginIn, 0.3))}"$2<a:buChar char="${b.char}"/>`);
      if (patched === out) throw new Error(`no level ${i + 1} bullet in the master's body style`);
      out = patched;
    });
    if (t.footerText) {
      const line =
        '<p:sp><p:nvSpPr><p:cNvPr id="990" name="Brand line"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>' +
        `<p:spPr><a:xfrm><a:off x="${emu(0.6)}" y="${emu(7.05)}"/><a:ext cx="${emu(4)}" cy="${emu(0.3)}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>` +
        `<p:txBody><a:bodyPr lIns="0" tIns="0" rIns="0" bIns="0" anchor="ctr"/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="1000"><a:solidFill><a:srgbClr val="${t.footerColor ?? '000000'}"/></a:solidFill><a:latin typeface="DejaVu Sans"/></a:rPr><a:t>${t.footerText}</a:t></a:r></a:p></p:txBody></p:sp>`;
      out = out.replace('</p:spTree>', `${line}</p:spTree>`);
    }
    return out;
  });
  const style = t.table.style;
  if (style) {
    await edit('ppt/tableStyles.xml', (xml) => xml.replace(/<a:tblStyleLst([^>]*?) def="[^"]*"\/>/, `<a:tblStyleLst$1 def="${/styleId="([^"]+)"/.exec(style)?.[1] ?? ''}">${style}</a:tblStyleLst>`));
  }
  // The content layout anchors its title (a bar centres it); the title layout is typed `title` and
  // its title is set in the hero colour.
  // Its body placeholder sets no list style of its own (pptxgenjs writes "no bullet" there), so body
  // text takes the master's bullets, as in a brand template.
  await edit('ppt/slideLayouts/slideLayout2.xml', (xml) =>
    xml
      .replace(/(type="title"[\s\S]*?<p:txBody>)<a:bodyPr wrap="square" rtlCol="0">/, `$1<a:bodyPr wrap="square" rtlCol="0" anchor="${t.anchor}">`)
      .replace(/(type="body"[\s\S]*?)<a:lstStyle><a:lvl1pPr indent="0" marL="0"><a:buNone\/><a:defRPr lang="en-US" dirty="0"><\/a:defRPr><\/a:lvl1pPr><\/a:lstStyle>/, '$1<a:lstStyle/>'),
  );
  await edit('ppt/slideLayouts/slideLayout3.xml', (xml) =>
    xml
      .replace('<p:sldLayout ', '<p:sldLayout type="title" ')
      .replace(/(type="title"[\s\S]*?<a:lstStyle><a:lvl1pPr indent="0" marL="0"><a:buNone\/>)<a:defRPr lang="en-US" dirty="0"><\/a:defRPr>/, `$1<a:defRPr lang="en-US" dirty="0"><a:solidFill><a:srgbClr val="${t.heroTitleColor}"/></a:solidFill></a:defRPr>`)
      // Its second placeholder is the subtitle, in the brand's subtitle colour.
      .replace(/type="body"([\s\S]*?<a:lstStyle><a:lvl1pPr indent="0" marL="0"><a:buNone\/>)<a:defRPr lang="en-US" dirty="0"><\/a:defRPr>/, `type="subTitle"$1<a:defRPr lang="en-US" dirty="0"><a:solidFill><a:srgbClr val="${t.subtitleColor}"/></a:solidFill></a:defRPr>`),
  );
  // The two-content layout's bodies, like the content layout's, take the master's bullets.
  if (t.twoContent) {
    await edit('ppt/slideLayouts/slideLayout4.xml', (xml) =>
      xml
        .replace(/(type="title"[\s\S]*?<p:txBody>)<a:bodyPr wrap="square" rtlCol="0">/, `$1<a:bodyPr wrap="square" rtlCol="0" anchor="${t.anchor}">`)
        .replace(/<a:lstStyle><a:lvl1pPr indent="0" marL="0"><a:buNone\/><a:defRPr lang="en-US" dirty="0"><\/a:defRPr><\/a:lvl1pPr><\/a:lstStyle>/g, '<a:lstStyle/>'),
    );
  }
  return zip.generateAsync({ type: 'nodebuffer' });
}
