import JSZip from 'jszip';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolioError } from '../../../../shared/errors';
import { type DeckSpecInput } from '../../../../shared/specs/deck';
import { sofficePath } from '../../soffice';
import { renderDeck } from '../index';
import { checkPackage, paragraphTexts } from '../pptx-inspect';
import { checkRenderedDeck } from '../rendered-check';
import { buildTemplate, FIXTURE } from './fixture.test-support';
import { readTemplate, TEMPLATE_MAX_BYTES } from './read';
import { deleteTemplate, importTemplate, listTemplates, loadTemplate } from './store';

let work: string;
let templatesDir: string;
let template: Buffer;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'deck-templates-'));
  templatesDir = join(work, 'templates');
  template = await buildTemplate();
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function part(zip: JSZip, name: string): Promise<string> {
  return (await zip.file(name)?.async('string')) ?? '';
}

const EMU = 914400;

describe('reading a template', () => {
  it('reads the colour and font schemes, the master background and logo, and the layouts with their placeholders', async () => {
    const t = await readTemplate(template, 'ACME Brand.pptx');
    expect(t.name).toBe(FIXTURE.name);
    expect(t.aspect).toBe('16:9');
    expect(t.colours.accent1).toBe(FIXTURE.scheme.accent1);
    expect(t.colours.dk2).toBe(FIXTURE.scheme.dk2);
    expect(t.fonts).toMatchObject({ major_latin: FIXTURE.headingFont, minor_latin: FIXTURE.bodyFont, major_ea: FIXTURE.eastAsianFont });
    expect(t.background).toEqual({ kind: 'solid', colour: FIXTURE.background });
    expect(t.logo?.part).toMatch(/^ppt\/media\//);
    expect(t.logo?.x).toBeCloseTo(FIXTURE.logo.x / 13.333, 2);
    const content = t.layouts.find((l) => l.part === t.mapping.content);
    expect(content?.name).toBe('ACME Content');
    const title = content?.placeholders.find((p) => p.type === 'title');
    expect(title?.x).toBeCloseTo(FIXTURE.title.x / 13.333, 2);
    expect(title?.y).toBeCloseTo(FIXTURE.title.y / 7.5, 2);
    expect(t.layouts.find((l) => l.part === t.mapping.title)?.name).toBe('ACME Title');
    // What could not be mapped is said: no section layout, no two-content layout.
    expect(t.warnings).toContainEqual({ kind: 'no_section_layout', layout: 'ACME Title' });
    expect(t.warnings).toContainEqual({ kind: 'no_two_content_layout', layout: 'ACME Content' });
  });

  it('reads a .potx the same way, and finds a logo left on the layout', async () => {
    const potx = await readTemplate(await buildTemplate({ potx: true }), 'ACME.potx');
    expect(potx.colours.accent1).toBe(FIXTURE.scheme.accent1);
    const raw = await readTemplate(await buildTemplate({ onMaster: false }), 'raw.pptx');
    expect(raw.logo?.part).toMatch(/^ppt\/media\//);
    expect(raw.background.colour).toBe(FIXTURE.background);
  });

  it.each([
    ['random bytes', Buffer.from('not a presentation at all'), /not a PowerPoint file/],
    ['an encrypted or legacy file', Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(512)]), /password-protected/],
    ['a damaged zip', Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(64, 7)]), /damaged/],
  ])('refuses %s with a ValidationError saying why', async (_what, bytes, message) => {
    const err = await readTemplate(bytes, 'x.pptx').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FolioError);
    expect((err as FolioError).code).toBe('invalid_input');
    expect((err as FolioError).message).toMatch(message);
  });

  it('refuses a Word document and a file over the size cap', async () => {
    const docx = new JSZip();
    docx.file('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');
    docx.file('_rels/.rels', '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
    docx.file('word/document.xml', '<w:document/>');
    await expect(readTemplate(await docx.generateAsync({ type: 'nodebuffer' }), 'a.docx')).rejects.toThrow(/Word document/);
    const huge = Buffer.alloc(TEMPLATE_MAX_BYTES + 1);
    const err = await readTemplate(huge, 'huge.pptx').catch((e: unknown) => e);
    expect((err as FolioError).code).toBe('payload_too_large');
  });
});

describe('storing templates', () => {
  it('imports under a unique id with the original file, lists, loads and deletes', async () => {
    const dir = join(work, 'store');
    const a = await importTemplate(dir, template, 'ACME Brand 2025.pptx');
    const b = await importTemplate(dir, template, 'ACME Brand 2025.pptx');
    const c = await importTemplate(dir, template, 'academic.pptx');
    expect(a.id).toBe('acme-brand-2025');
    expect(b.id).toBe('acme-brand-2025-2');
    expect(c.id).toBe('academic-2'); // a built-in theme name is never taken
    expect(a.theme.name).toBe(a.id);
    // Light text on the dark master; the red accent1 is unreadable on it, so the yellow accent2 leads.
    expect(a.theme.palette.background).toBe(FIXTURE.background);
    expect(a.theme.palette.text).toBe(FIXTURE.scheme.lt1);
    expect(a.theme.palette.accent).toBe(FIXTURE.scheme.accent2);
    expect(a.warnings).toContainEqual({ kind: 'accent_colour_hard', colour: 'C8102E', chosen: FIXTURE.scheme.accent2 });
    expect(listTemplates(dir).templates.map((t) => t.id)).toEqual([a.id, b.id, c.id]);
    expect(loadTemplate(dir, a.id).bytes.equals(template)).toBe(true);
    deleteTemplate(dir, b.id);
    expect(listTemplates(dir).templates.map((t) => t.id)).toEqual([a.id, c.id]);
    expect(readdirSync(dir).filter((n) => n.startsWith('.'))).toEqual([]);
    expect(() => deleteTemplate(dir, b.id)).toThrow(/No template/);
    expect(() => loadTemplate(dir, '../etc')).toThrow(/not a template id/);
  });

  it('names a folder whose record cannot be read, as data, and lists the rest', async () => {
    const dir = join(work, 'damaged');
    const good = await importTemplate(dir, template, 'good.pptx');
    mkdirSync(join(dir, 'broken'));
    writeFileSync(join(dir, 'broken', 'template.json'), '{"id": "broken",');
    const { templates, errors } = listTemplates(dir);
    expect(templates.map((t) => t.id)).toEqual([good.id]);
    expect(errors.map((e) => e.folder)).toEqual(['templates/broken']);
    expect(errors[0]?.detail).toMatch(/JSON/);
  });

  it('leaves nothing behind when the file is refused', async () => {
    const dir = join(work, 'refused');
    await expect(importTemplate(dir, Buffer.from('nope'), 'nope.pptx')).rejects.toThrow(/not a PowerPoint/);
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });
});

const spec: DeckSpecInput = {
  title: 'Quarterly review',
  author: 'Folio',
  footer: 'ACME · internal',
  slides: [
    { layout: 'title', title: 'Quarterly review', subtitle: 'Where we are' },
    { layout: 'bullets', title: 'Three things', bullets: ['Revenue up', 'Costs flat', '新客户 增长'] },
    { layout: 'two_column', title: 'Before and after', left: { bullets: ['Manual', 'Slow'] }, right: { text: '自动，快速' } },
    { layout: 'section', title: 'Results' },
    { layout: 'closing' },
  ],
};

describe('rendering onto a template', () => {
  let id: string;
  let deckPath: string;
  let plan: Awaited<ReturnType<typeof renderDeck>>['plan'];
  let report: Awaited<ReturnType<typeof renderDeck>>['report'];
  let zip: JSZip;
  let fixedText: Awaited<ReturnType<typeof renderDeck>>['fixedText'] = [];
  beforeAll(async () => {
    id = (await importTemplate(templatesDir, template, 'ACME Brand.pptx')).id;
    const out = await renderDeck({ ...spec, theme: id } as never, { baseDir: work, outDir: join(work, 'out'), templatesDir });
    deckPath = out.path;
    // What the preview sidecar records: the template's own theme, not a fallback.
    expect(out.theme.name).toBe(id);
    // The master's own text is known, so the rendered check does not blame the deck for it.
    expect(out.fixedText.map((f) => f.text)).toContain(FIXTURE.masterText);
    fixedText = out.fixedText;
    plan = out.plan;
    report = out.report;
    zip = await JSZip.loadAsync(readFileSync(deckPath));
  });

  it('keeps the template master: its background and logo, and every slide on one of its layouts', async () => {
    const master = await part(zip, 'ppt/slideMasters/slideMaster1.xml');
    expect(master).toContain(`<a:srgbClr val="${FIXTURE.background}"/>`);
    expect(master).toMatch(/<p:pic>[\s\S]*r:embed="rIdLogo"/);
    const rels = await part(zip, 'ppt/slideMasters/_rels/slideMaster1.xml.rels');
    const logoTarget = /Id="rIdLogo"[^>]*Target="([^"]+)"/.exec(rels)?.[1] ?? '';
    const logo = await zip.file(join('ppt/slideMasters', logoTarget).replace(/\\/g, '/'))?.async('nodebuffer');
    expect(logo?.equals(FIXTURE.logoPng)).toBe(true);
    // Slides leave the background to the master and point at the template's layouts.
    const layoutNames: string[] = [];
    for (let n = 1; n <= plan.slides.length; n++) {
      expect(await part(zip, `ppt/slides/slide${n}.xml`)).not.toContain('<p:bg>');
      const slideRels = await part(zip, `ppt/slides/_rels/slide${n}.xml.rels`);
      const layout = /slideLayout" Target="\.\.\/slideLayouts\/(slideLayout\d+\.xml)"/.exec(slideRels)?.[1] ?? '';
      const layoutXml = await part(zip, `ppt/slideLayouts/${layout}`);
      layoutNames.push(/<p:cSld name="([^"]*)"/.exec(layoutXml)?.[1] ?? '');
      expect(await part(zip, `ppt/slideLayouts/_rels/${layout}.rels`)).toContain('../slideMasters/slideMaster1.xml');
    }
    expect(layoutNames).toEqual(['ACME Title', 'ACME Content', 'ACME Content', 'ACME Title', 'ACME Title']);
    const problems = await checkPackage(zip);
    expect(problems.missingTargets).toEqual([]);
    expect(problems.uncoveredParts).toEqual([]);
  });

  it('carries the template theme: colours and fonts read back from the XML, east-Asian slots kept', async () => {
    const theme = await part(zip, 'ppt/theme/theme1.xml');
    expect(theme).toContain(`<a:accent1><a:srgbClr val="${FIXTURE.scheme.accent1}"/></a:accent1>`);
    expect(theme).toMatch(new RegExp(`<a:majorFont>\\s*<a:latin typeface="${FIXTURE.headingFont}"`));
    expect(theme).toMatch(new RegExp(`<a:minorFont>\\s*<a:latin typeface="${FIXTURE.bodyFont}"`));
    expect(theme).toMatch(new RegExp(`<a:majorFont>[\\s\\S]*?<a:ea typeface="${FIXTURE.eastAsianFont}"`));
    // The slides are set in the template's faces: the title inherits the heading face from its placeholder, the body names the body face.
    const slide2 = await part(zip, 'ppt/slides/slide2.xml');
    const titleShape = /<p:sp>(?:(?!<\/p:sp>)[\s\S])*?<p:ph type="title"\/>[\s\S]*?<\/p:sp>/.exec(slide2)?.[0] ?? '';
    expect(titleShape).toContain('<a:t>');
    expect(titleShape).not.toContain('typeface=');
    expect(slide2).toContain(`typeface="${FIXTURE.bodyFont}"`);
  });

  it('places titles in the template placeholders and draws the slide number on the slides; the master\'s own footer line is the only footer', async () => {
    const content = plan.slides[1];
    const title = content?.elements.find((e) => e.kind === 'text' && e.role === 'title');
    expect(title?.box.x).toBeCloseTo(FIXTURE.title.x, 1);
    expect(title?.box.y).toBeCloseTo(FIXTURE.title.y, 1);
    const body = content?.elements.find((e) => e.kind === 'text' && e.role === 'body');
    expect(body?.box.x).toBeCloseTo(FIXTURE.body.x, 1);
    const hero = plan.slides[0]?.elements.find((e) => e.kind === 'text' && e.role === 'title');
    expect(hero?.box.x).toBeCloseTo(FIXTURE.heroTitle.x, 1);
    // Folio's own marks are left to the template on hero slides.
    expect(plan.slides[0]?.elements.some((e) => e.kind === 'shape')).toBe(false);
    const slide2 = await part(zip, 'ppt/slides/slide2.xml');
    expect(Math.round(Number(/name="Title"[\s\S]*?<a:off x="(\d+)"/.exec(slide2)?.[1]) / EMU * 10) / 10).toBeCloseTo(FIXTURE.title.x, 1);
    // The master prints its own line along the bottom edge: Folio's footer is not drawn over it.
    expect(paragraphTexts(slide2)).not.toContain('ACME · internal');
    expect(slide2).toContain('type="slidenum"');
  });

  it.skipIf(sofficePath() === null)('converts in LibreOffice and passes the rendered-slide check', async () => {
    // Without fixedText the master's classification line is blamed on the footer ("6 words outside its box").
    const { report: checked, verification } = await checkRenderedDeck({ path: deckPath, plan, report, fixedText }, { timeoutMs: 120_000 });
    expect(verification.mode, verification.reason).toBe('rendered');
    const problems = checked.slides.flatMap((s) => s.issues.filter((i) => ['off_slide', 'outside_box', 'in_footer', 'overlap', 'title_lines'].includes(i.kind)).map((i) => `${s.index} ${i.kind}: ${i.message}`));
    expect(problems).toEqual([]);
  }, 150_000);
});

if (sofficePath() === null) console.warn('[templates.test] soffice (libreoffice-impress) not installed: the LibreOffice conversion of a templated deck is skipped');
