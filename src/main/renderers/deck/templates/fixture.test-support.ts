// A company template built in the test (no PowerPoint here): pptxgenjs writes a master with
// placeholders, then the XML is patched the way PowerPoint-made templates look: the background and
// the logo on the slide master itself, a distinct colour scheme and font scheme in the theme, a
// title-slide layout typed `title`. Tests import it and read the rendered deck back.
import JSZip from 'jszip';
import PptxGenJS from 'pptxgenjs';

export const FIXTURE = {
  name: 'ACME Brand',
  /** The master's background. */
  background: '0B3D2E',
  scheme: { dk1: '101820', lt1: 'FFFFFF', dk2: '1B2A41', lt2: 'F2E8CF', accent1: 'C8102E', accent2: 'FFD100', accent3: '00843D', accent4: '0072CE', accent5: '7C878E', accent6: 'A05EB5', hlink: '0072CE', folHlink: 'A05EB5' },
  headingFont: 'DejaVu Serif',
  bodyFont: 'DejaVu Sans',
  eastAsianFont: 'Noto Serif CJK SC',
  /** The content layout's title placeholder, inches. */
  title: { x: 1.2, y: 0.35, w: 9.8, h: 1.0 },
  body: { x: 1.2, y: 1.7, w: 10.9, h: 4.9 },
  /** The title layout's title placeholder, inches. */
  heroTitle: { x: 2.0, y: 2.4, w: 9.3, h: 1.4 },
  logo: { x: 11.6, y: 0.3, w: 1.2, h: 0.6 },
  /** Text the master draws on every slide, along the bottom edge, right of the footer, as corporate templates do. */
  masterText: 'ACME Confidential 内部资料',
  /** An 8×4 PNG, red and yellow. */
  logoPng: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAEAgMAAADOo5ZjAAAABGdBTUEAALGPC/xhBQAAACBjSFJNAAB6JgAAgIQAAPoAAACA6AAAdTAAAOpgAAA6mAAAF3CculE8AAAACVBMVEXIEC7/0QD///8zquBNAAAAAWJLR0QCZgt8ZAAAAAd0SU1FB+oLHhYEFjQOLG4AAAANSURBVAjXY2AIZYAhAAdaAVWx0oL+AAAAJXRFWHRkYXRlOmNyZWF0ZQAyMDI2LTExLTMwVDIyOjA0OjIyKzAwOjAwwhEbIAAAACV0RVh0ZGF0ZTptb2RpZnkAMjAyNi0xMS0zMFQyMjowNDoyMiswMDowMLNMo5wAAAAASUVORK5CYII=',
    'base64',
  ),
} as const;

const TEMPLATE_MAIN = 'application/vnd.openxmlformats-officedocument.presentationml.template.main+xml';

export interface FixtureOptions {
  /** .potx: the main part typed as a template. */
  potx?: boolean;
  /** false: leave the background and logo on the layout, as pptxgenjs writes them. */
  onMaster?: boolean;
}

export async function buildTemplate(o: FixtureOptions = {}): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE';
  pptx.title = FIXTURE.name;
  const ph = (name: string, type: 'title' | 'body', box: { x: number; y: number; w: number; h: number }) => ({ placeholder: { options: { name, type, ...box }, text: '' } });
  pptx.defineSlideMaster({
    title: 'ACME Content',
    background: { color: FIXTURE.background },
    objects: [{ image: { ...FIXTURE.logo, data: `image/png;base64,${FIXTURE.logoPng.toString('base64')}` } }, ph('title', 'title', FIXTURE.title), ph('body', 'body', FIXTURE.body)],
  });
  pptx.defineSlideMaster({ title: 'ACME Title', objects: [ph('title', 'title', FIXTURE.heroTitle)] });
  pptx.addSlide({ masterName: 'ACME Content' });
  const zip = await JSZip.loadAsync(await pptx.write({ outputType: 'nodebuffer' }));

  const theme = (await zip.file('ppt/theme/theme1.xml')?.async('string')) ?? '';
  const scheme = Object.entries(FIXTURE.scheme).map(([slot, hex]) => `<a:${slot}><a:srgbClr val="${hex}"/></a:${slot}>`).join('');
  zip.file(
    'ppt/theme/theme1.xml',
    theme
      .replace(/<a:clrScheme name="[^"]*">[\s\S]*?<\/a:clrScheme>/, `<a:clrScheme name="ACME">${scheme}</a:clrScheme>`)
      .replace(/(<a:majorFont>\s*)<a:latin typeface="[^"]*"/, `$1<a:latin typeface="${FIXTURE.headingFont}"`)
      .replace(/(<a:minorFont>\s*)<a:latin typeface="[^"]*"/, `$1<a:latin typeface="${FIXTURE.bodyFont}"`)
      .replace(/(<a:majorFont>[\s\S]*?)<a:ea typeface="[^"]*"\/>/, `$1<a:ea typeface="${FIXTURE.eastAsianFont}"/>`),
  );

  // pptxgenjs: slideLayout2 is "ACME Content", slideLayout3 "ACME Title".
  const title = (await zip.file('ppt/slideLayouts/slideLayout3.xml')?.async('string')) ?? '';
  zip.file('ppt/slideLayouts/slideLayout3.xml', title.replace('<p:sldLayout ', '<p:sldLayout type="title" '));
  if (o.onMaster !== false) await moveToMaster(zip);
  if (o.potx) {
    const types = (await zip.file('[Content_Types].xml')?.async('string')) ?? '';
    zip.file('[Content_Types].xml', types.replace(/(PartName="\/ppt\/presentation\.xml" ContentType=")[^"]+"/, `$1${TEMPLATE_MAIN}"`));
  }
  return zip.generateAsync({ type: 'nodebuffer' });
}

/** The content layout's background and logo moved onto the slide master, as PowerPoint templates keep them. */
async function moveToMaster(zip: JSZip): Promise<void> {
  const layoutPart = 'ppt/slideLayouts/slideLayout2.xml';
  const layout = (await zip.file(layoutPart)?.async('string')) ?? '';
  const bg = /<p:bg>[\s\S]*?<\/p:bg>/.exec(layout)?.[0] ?? '';
  const pic = /<p:pic>[\s\S]*?<\/p:pic>/.exec(layout)?.[0] ?? '';
  const layoutRels = (await zip.file('ppt/slideLayouts/_rels/slideLayout2.xml.rels')?.async('string')) ?? '';
  const image = /<Relationship Id="(rId\d+)" Type="[^"]*\/image" Target="([^"]+)"\/>/.exec(layoutRels);
  if (!bg || !pic || !image) throw new Error('pptxgenjs wrote the template layout differently than this fixture expects');
  zip.file(layoutPart, layout.replace(bg, '').replace(pic, ''));
  zip.file('ppt/slideLayouts/_rels/slideLayout2.xml.rels', layoutRels.replace(image[0], ''));
  const master = (await zip.file('ppt/slideMasters/slideMaster1.xml')?.async('string')) ?? '';
  const masterPic = pic.replace(`r:embed="${image[1]}"`, 'r:embed="rIdLogo"');
  const label =
    '<p:sp><p:nvSpPr><p:cNvPr id="990" name="Classification"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>' +
    '<p:spPr><a:xfrm><a:off x="7772400" y="6675120"/><a:ext cx="2286000" cy="164592"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>' +
    `<p:txBody><a:bodyPr lIns="0" tIns="0" rIns="0" bIns="0"/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="700"/><a:t>${FIXTURE.masterText}</a:t></a:r></a:p></p:txBody></p:sp>`;
  zip.file('ppt/slideMasters/slideMaster1.xml', master.replace('<p:cSld>', `<p:cSld>${bg}`).replace('</p:spTree>', `${masterPic}${label}</p:spTree>`));
  const masterRels = (await zip.file('ppt/slideMasters/_rels/slideMaster1.xml.rels')?.async('string')) ?? '';
  const rel = `<Relationship Id="rIdLogo" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="${image[2]}"/>`;
  zip.file('ppt/slideMasters/_rels/slideMaster1.xml.rels', masterRels.replace('</Relationships>', `${rel}</Relationships>`));
}
