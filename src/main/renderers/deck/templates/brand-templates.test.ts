// Decks on three company-shaped templates (a coloured title bar, a full-bleed dark master, a title
// band along the bottom), each with a dense and a sparse deck, converted by LibreOffice once for the
// whole file and read back from the PDF: words from pdftotext, colours from pdftoppm's pixels.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeckSpecInput, type QualityReport } from '../../../../shared/specs/deck';
import { type DeckPlan } from '../../../../shared/specs/deck-plan';
import { contrastRatio, type Theme } from '../../../../shared/specs/themes';
import { renderDeck } from '../index';
import { BRAND_TEMPLATES, type BrandTemplate, type Box, buildBrandTemplate } from './brand-templates.test-support';
import { importTemplate } from './store';

const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const hasTools = has('soffice') && has('pdftotext') && has('pdftoppm');
if (!hasTools) console.warn('[brand-templates.test] soffice, pdftotext or pdftoppm not installed (apt-get install libreoffice-impress poppler-utils): the rendered template checks are skipped');

const DPI = 72;
const FOOTER = 'Quarterly · internal';

const sparse = (): DeckSpecInput => ({
  title: 'Quarterly review',
  subtitle: 'Where we stand after the third quarter',
  author: 'Folio',
  date: '2026',
  footer: FOOTER,
  slides: [
    { layout: 'title' },
    { layout: 'bullets', title: 'Three things', bullets: ['Revenue up', 'Costs flat', 'Churn down'] },
    { layout: 'section', title: 'Results', subtitle: 'Third quarter in numbers' },
    { layout: 'closing', subtitle: 'Questions welcome' },
  ],
});

const dense = (): DeckSpecInput => ({
  title: 'Regional operations review for the full financial year',
  subtitle: 'Revenue, margins and the plan for the next two quarters',
  author: 'Folio',
  footer: FOOTER,
  slides: [
    { layout: 'title' },
    {
      layout: 'bullets',
      title: 'Margins recovered in every region once the new pricing reached the distributors',
      bullets: [
        { text: 'Northern region margin rose from 18% to 24% within two quarters', sub: ['Pricing reached distributors in March'] },
        'Southern region held its margin despite higher freight costs',
        'Western region grew volume by a third with flat overheads',
        '新客户增长主要来自华东地区的渠道合作',
        'Central region is the one place where costs still outpace revenue',
      ],
    },
    {
      layout: 'two_column',
      title: 'What changed between the first half and the second half of the year',
      left: { bullets: ['Manual quotes', 'Slow approvals', 'Three price lists'] },
      right: { bullets: ['Quotes in minutes', 'One approval step', 'One price list'] },
    },
    {
      layout: 'table',
      title: 'Results by region',
      table: { header: ['Region', 'Revenue ($M)', 'Margin'], rows: [['North', '12.4', '24%'], ['South', '9.8', '21%'], ['West', '7.1', '19%'], ['Central', '5.5', '12%']] },
    },
    { layout: 'closing', title: 'Thank you', subtitle: 'The full figures are in the appendix of the annual report' },
  ],
});

interface Word {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

interface Page {
  words: Word[];
  width: number;
  height: number;
  pixels: Buffer;
}

interface Rendered {
  template: BrandTemplate;
  /** The .pptx's slide XML, in order. */
  slidesXml: string[];
  theme: Theme;
  plan: DeckPlan;
  report: QualityReport;
  notes: string[];
  pages: Page[];
}

/** pdftotext -bbox: words with their boxes in points, per page, turned into inches. */
function readWords(pdf: string): Word[][] {
  const xml = execFileSync('pdftotext', ['-bbox', '-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' });
  return [...xml.matchAll(/<page[^>]*>([\s\S]*?)<\/page>/g)].map((page) =>
    [...(page[1] ?? '').matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => {
      const [x0, y0, x1, y1] = [m[1], m[2], m[3], m[4]].map((v) => Number(v) / 72) as [number, number, number, number];
      return { text: (m[5] ?? '').replace(/&amp;/g, '&'), x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
    }),
  );
}

/** pdftoppm -ppm pages (binary P6). */
function readPixels(pdf: string, dir: string): { width: number; height: number; pixels: Buffer }[] {
  const prefix = join(dir, 'page');
  execFileSync('pdftoppm', ['-r', String(DPI), pdf, prefix]);
  return readdirSync(dir)
    .filter((f) => f.startsWith('page') && f.endsWith('.ppm'))
    .sort()
    .map((f) => {
      const bytes = readFileSync(join(dir, f));
      const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.subarray(0, 40).toString('latin1'));
      if (!header) throw new Error(`${f} is not a binary PPM`);
      return { width: Number(header[1]), height: Number(header[2]), pixels: bytes.subarray(header[0].length) };
    });
}

const hex = (r: number, g: number, b: number): string => [r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('').toUpperCase();
const dist = (a: string, b: string): number => [0, 2, 4].reduce((s, i) => s + Math.abs(parseInt(a.slice(i, i + 2), 16) - parseInt(b.slice(i, i + 2), 16)), 0);

function pixel(page: Page, x: number, y: number): string {
  const px = Math.min(page.width - 1, Math.max(0, Math.round(x * DPI)));
  const py = Math.min(page.height - 1, Math.max(0, Math.round(y * DPI)));
  const i = (py * page.width + px) * 3;
  return hex(page.pixels[i] ?? 0, page.pixels[i + 1] ?? 0, page.pixels[i + 2] ?? 0);
}

/** The colours under a word: what surrounds it (the commonest colour of a ring around its box) and its ink (the pixel farthest from that). */
function inkOn(page: Page, w: Word): { ink: string; paper: string } {
  const counts = new Map<string, number>();
  const step = 1 / DPI;
  const pad = 0.04;
  for (let x = w.x - pad; x <= w.x + w.w + pad; x += step) {
    for (const y of [w.y - pad, w.y + w.h + pad]) counts.set(pixel(page, x, y), (counts.get(pixel(page, x, y)) ?? 0) + 1);
  }
  const paper = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'FFFFFF';
  let ink = paper;
  for (let x = w.x; x <= w.x + w.w; x += step) {
    for (let y = w.y; y <= w.y + w.h; y += step) {
      const c = pixel(page, x, y);
      if (dist(c, paper) > dist(ink, paper)) ink = c;
    }
  }
  return { ink, paper };
}

const within = (w: Word, b: Box, tol = 0.06): boolean => w.x >= b.x - tol && w.y >= b.y - tol && w.x + w.w <= b.x + b.w + tol && w.y + w.h <= b.y + b.h + tol;
const intersects = (w: Word, b: Box): boolean => w.x < b.x + b.w && w.x + w.w > b.x && w.y < b.y + b.h && w.y + w.h > b.y;

/** The words of a planned text element on its page, by their text: only words no other text on the slide has. */
function wordsOf(page: Page, text: string, others: readonly string[] = []): Word[] {
  const elsewhere = new Set(others.flatMap((o) => o.split(/\s+/)));
  const wanted = new Set(text.split(/\s+/).filter((t) => t.length > 1 && !elsewhere.has(t)));
  return page.words.filter((w) => wanted.has(w.text));
}

/** The texts of a slide's other elements (so a word shared with the body is not read as the title's). */
function otherTexts(d: Rendered, i: number, role: string): string[] {
  return (d.plan.slides[i]?.elements ?? []).flatMap((e) => (e.kind === 'text' && e.role !== role ? e.paragraphs.map((p) => p.text) : e.kind === 'table' ? [...e.header, ...e.rows.flat()] : []));
}

let work: string;
const decks = new Map<string, Rendered>();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'brand-templates-'));
  const templatesDir = join(work, 'templates');
  const outDir = join(work, 'out');
  const files: { key: string; path: string; rendered: Omit<Rendered, 'pages'> }[] = [];
  for (const template of BRAND_TEMPLATES) {
    const record = await importTemplate(templatesDir, await buildBrandTemplate(template), `${template.name}.pptx`);
    for (const [kind, spec] of [['sparse', sparse()], ['dense', dense()]] as const) {
      const out = await renderDeck({ ...spec, theme: record.id } as never, { baseDir: work, outDir, templatesDir, fileName: `${template.key}-${kind}.pptx` });
      const zip = await JSZip.loadAsync(readFileSync(out.path));
      const slidesXml = await Promise.all(out.plan.slides.map(async (_s, i) => (await zip.file(`ppt/slides/slide${i + 1}.xml`)?.async('string')) ?? ''));
      files.push({ key: `${template.key}-${kind}`, path: out.path, rendered: { template, slidesXml, theme: out.theme, plan: out.plan, report: out.report, notes: out.notes } });
    }
  }
  if (!hasTools) {
    for (const f of files) decks.set(f.key, { ...f.rendered, pages: [] });
    return;
  }
  // One LibreOffice start converts every deck of the file.
  execFileSync('soffice', [`-env:UserInstallation=file://${join(work, 'profile')}`, '--headless', '--convert-to', 'pdf', '--outdir', join(work, 'pdf'), ...files.map((f) => f.path)], { stdio: 'ignore', timeout: 240_000 });
  for (const f of files) {
    const pdf = join(work, 'pdf', `${f.key}.pdf`);
    const words = readWords(pdf);
    const dir = mkdtempSync(join(work, `${f.key}-px-`));
    const images = readPixels(pdf, dir);
    expect(images.length, `${f.key}: pages`).toBe(f.rendered.plan.slides.length);
    decks.set(f.key, { ...f.rendered, pages: images.map((img, i) => ({ ...img, words: words[i] ?? [] })) });
  }
}, 300_000);

afterAll(() => {
  if (process.env.FOLIO_KEEP_RENDERS) console.warn(`[brand-templates.test] renders kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
});

const keys = BRAND_TEMPLATES.flatMap((t) => [`${t.key}-sparse`, `${t.key}-dense`]);
/** The template a deck key is on (known before the decks are rendered). */
const deck0 = (key: string): BrandTemplate => {
  const t = BRAND_TEMPLATES.find((b) => key.startsWith(`${b.key}-`));
  if (!t) throw new Error(`no template for ${key}`);
  return t;
};
const deck = (key: string): Rendered => {
  const d = decks.get(key);
  if (!d) throw new Error(`no deck ${key}`);
  return d;
};
const isContent = (d: Rendered, i: number): boolean => d.plan.slides[i]?.master === 'content';
const titleOf = (d: Rendered, i: number): string =>
  (d.plan.slides[i]?.elements ?? []).flatMap((e) => (e.kind === 'text' && e.role === 'title' ? e.paragraphs.map((p) => p.text) : [])).join(' ');

describe('a deck on a company template follows the template', () => {
  it.each(BRAND_TEMPLATES.map((t) => [t.key, t] as const))('%s: titles take the template title style (colour, size, face) and the master\'s paint decides the text colours', (key, t) => {
    const d = deck(`${key}-sparse`);
    expect(d.theme.template?.title).toMatchObject({ color: t.titleColor, sizePt: t.titleSizePt, face: t.headingFont, align: 'left' });
    expect(d.theme.fonts.latinHeading).toBe(t.headingFont);
    const content = d.plan.slides.find((s) => s.master === 'content');
    const title = content?.elements.find((e) => e.kind === 'text' && e.role === 'title');
    expect(title?.kind === 'text' && title.paragraphs[0]?.color).toBe(t.titleColor);
    expect(title?.kind === 'text' && title.align).toBe('left');
    // Every text element reads on what the template paints behind it (the plan's own check).
    const contrast = d.report.slides.flatMap((s) => s.issues.filter((i) => i.kind === 'low_contrast'));
    expect(contrast.map((i) => i.message).join('\n')).toBe('');
  });

  it.each(keys)('%s: titles are the layout\'s title placeholder and inherit its colour, size, face and alignment (no hard-coded run style)', (key) => {
    const d = deck(key);
    const t = d.template;
    const problems: string[] = [];
    d.slidesXml.forEach((xml, i) => {
      const sp = /<p:sp>(?:(?!<\/p:sp>)[\s\S])*?<p:ph type="(?:title|ctrTitle)"\/>[\s\S]*?<\/p:sp>/.exec(xml)?.[0];
      if (!sp) return problems.push(`${i + 1}: no title placeholder`);
      const shrunk = d.report.slides.some((s) => s.output_slides.includes(i + 1) && s.issues.some((issue) => issue.kind === 'shrunk' && /title/.test(issue.message)));
      for (const run of sp.matchAll(/<a:rPr\b([^>]*?)(?:\/>|>([\s\S]*?)<\/a:rPr>)<a:t>([^<]*)<\/a:t>/g)) {
        const [, attrs = '', inner = '', text = ''] = run;
        if (/<a:solidFill>/.test(inner)) problems.push(`${i + 1}: title run "${text}" sets its colour`);
        if (/<a:latin /.test(inner) && !/[\u3000-\u9fff]/.test(text)) problems.push(`${i + 1}: title run "${text}" sets its face`);
        const sz = /\ssz="(\d+)"/.exec(attrs);
        // A size only where the title was shrunk to fit its placeholder (and reported so).
        if (sz && !(shrunk && Number(sz[1]) < t.titleSizePt * 100)) problems.push(`${i + 1}: title run "${text}" sets sz=${sz[1]}`);
      }
      if (/<a:pPr\b[^>]*algn="l"/.test(sp)) problems.push(`${i + 1}: title paragraph sets the template's own alignment`);
    });
    expect(problems.join('\n')).toBe('');
  });

  it.each(keys)('%s: body text is the content layout\'s body placeholder and inherits its colour, face and size (no hard-coded run style)', (key) => {
    const d = deck(key);
    const t = d.template;
    expect(d.theme.template?.body).toMatchObject({ color: t.bodyColor, sizePt: t.bodySizePt, face: t.bodyFont });
    const problems: string[] = [];
    let bodies = 0;
    d.slidesXml.forEach((xml, i) => {
      if (!isContent(d, i) || !d.plan.slides[i]?.elements.some((e) => e.kind === 'text' && e.id === 'body')) return;
      bodies++;
      const sp = /<p:sp><p:nvSpPr><p:cNvPr id="\d+" name="body"[\s\S]*?<\/p:sp>/.exec(xml)?.[0] ?? '';
      if (!/<p:ph type="body" idx="\d+"\/>/.test(sp)) return problems.push(`${i + 1}: body text is not the layout's body placeholder`);
      for (const para of sp.match(/<a:p>[\s\S]*?<\/a:p>/g) ?? []) {
        if (/<a:pPr\b[^>]*\slvl="[1-8]"/.test(para)) continue;
        for (const run of para.matchAll(/<a:rPr\b([^>]*?)(?:\/>|>([\s\S]*?)<\/a:rPr>)<a:t>([^<]*)<\/a:t>/g)) {
          const [, attrs = '', inner = '', text = ''] = run;
          if (/<a:solidFill>/.test(inner)) problems.push(`${i + 1}: body run "${text}" sets its colour`);
          if (/<a:latin /.test(inner) && !/[\u3000-\u9fff]/.test(text)) problems.push(`${i + 1}: body run "${text}" sets its face`);
          if (new RegExp(`\\ssz="${t.bodySizePt * 100}"`).test(attrs)) problems.push(`${i + 1}: body run "${text}" writes the template's own size`);
        }
        if (/<a:pPr\b[^>]*algn="l"/.test(para)) problems.push(`${i + 1}: body paragraph sets the template's own alignment`);
      }
    });
    expect(bodies).toBeGreaterThan(0);
    expect(problems.join('\n')).toBe('');
  });

  it.each(keys)('%s: bulleted body text takes the template\'s bullet character and indent per level (none written on the slide)', (key) => {
    const d = deck(key);
    const t = d.template;
    expect(d.theme.template?.bullets?.slice(0, 2).map((b) => `${b.char} ${b.marginPt.toFixed(1)} pt`)).toEqual(t.bullets.map((b) => `${b.char} ${(b.marginIn * 72).toFixed(1)} pt`));
    const problems: string[] = [];
    let bulleted = 0;
    d.slidesXml.forEach((xml, i) => {
      if (!isContent(d, i)) return;
      const sp = /<p:sp><p:nvSpPr><p:cNvPr id="\d+" name="body"[\s\S]*?<\/p:sp>/.exec(xml)?.[0];
      if (!sp) return;
      for (const para of sp.match(/<a:p>[\s\S]*?<\/a:p>/g) ?? []) {
        if (!/<a:t>/.test(para)) continue;
        bulleted++;
        const pPr = /<a:pPr\b[^>]*>/.exec(para)?.[0] ?? '';
        if (/<a:buChar\b/.test(para)) problems.push(`${i + 1}: a body paragraph writes its own bullet character`);
        if (/\s(?:marL|indent)="/.test(pPr)) problems.push(`${i + 1}: a body paragraph writes its own indent: ${pPr}`);
      }
    });
    expect(bulleted).toBeGreaterThan(0);
    expect(problems.join('\n')).toBe('');
  });

  it.each(BRAND_TEMPLATES.map((t) => [t.key, t] as const))('%s: the table takes the template\'s table style, else a header in its title bar\'s colour, with body rows in its body text colour (never a bare accent1)', (key, t) => {
    const d = deck(`${key}-dense`);
    const i = d.plan.slides.findIndex((s) => s.elements.some((e) => e.kind === 'table'));
    const frame = /<p:graphicFrame>[\s\S]*?<a:tbl>[\s\S]*?<\/p:graphicFrame>/.exec(d.slidesXml[i] ?? '')?.[0] ?? '';
    const rows = frame.match(/<a:tr\b[\s\S]*?<\/a:tr>/g) ?? [];
    expect(rows.length).toBe(5);
    // A cell's own fill (its borders' line fills taken out first).
    const fills = (row: string): string[] => [...row.replace(/<a:ln[LRTB]\b[\s\S]*?<\/a:ln[LRTB]>/g, '').matchAll(/<a:tcPr\b[^>]*>(?:(?!<\/a:tcPr>)[\s\S])*?<a:solidFill><a:srgbClr val="([0-9A-F]{6})"/g)].map((m) => m[1] ?? '');
    const inks = (row: string): string[] => [...row.matchAll(/<a:rPr\b[^>]*>(?:(?!<\/a:rPr>)[\s\S])*?<a:solidFill><a:srgbClr val="([0-9A-F]{6})"/g)].map((m) => m[1] ?? '');
    const [header = '', ...body] = rows;
    expect(new Set(fills(header))).toEqual(new Set([t.table.headerFill]));
    expect(new Set(inks(header))).toEqual(new Set([t.table.headerText]));
    expect(new Set(body.flatMap(inks))).toEqual(new Set([t.table.bodyText]));
    // The first and third body rows are plain: the style's body fill, else the slide's background.
    expect(new Set([body[0], body[2]].flatMap((r) => fills(r ?? '')))).toEqual(new Set([t.table.bodyFill ?? t.background]));
    expect(d.report.slides.flatMap((s) => s.issues.filter((issue) => issue.kind === 'low_contrast').map((issue) => issue.message))).toEqual([]);
  });

  it('reports the faces the template names that this machine lacks, with the face used instead', () => {
    const issues = (key: string): string => deck(`${key}-sparse`).report.slides.flatMap((s) => s.issues.filter((i) => i.kind === 'font_fallback').map((i) => i.message)).join('\n');
    for (const face of ['Georgia', 'Verdana']) {
      const fc = spawnSync('fc-match', ['-f', '%{family[0]}', face], { encoding: 'utf8' }).stdout;
      if (fc && fc.toLowerCase() !== face.toLowerCase()) expect(issues('bar')).toContain(`"${face}" is not installed: text is set in ${fc}`);
    }
    // Faces that are installed are not reported.
    expect(issues('dark')).not.toMatch(/DejaVu Sans" is not installed/);
  });

  it('keeps one footer: the template\'s own line when it prints one (and says so), else Folio\'s', () => {
    const bottom = deck('bottom-dense');
    expect(bottom.notes.join('\n')).toMatch(/prints its own footer/);
    expect(bottom.plan.slides.flatMap((s) => s.elements).some((e) => e.id === 'footer')).toBe(false);
    const bar = deck('bar-dense');
    expect(bar.plan.slides.filter((s) => s.master === 'content').every((s) => s.elements.some((e) => e.id === 'footer'))).toBe(true);
  });
});

/** Text Folio sets in a template placeholder, checked alike: the plan element, its slides, the placeholder and the colour the template gives it. */
interface PlaceholderCase {
  what: string;
  id: string;
  /** On content slides, or on title and closing slides. */
  onContent: boolean;
  phType: 'body' | 'subTitle';
  /** Undefined: the template has no such placeholder. */
  box: (t: BrandTemplate) => Box | undefined;
  color: (t: BrandTemplate) => string;
  denseOnly?: boolean;
}

const PLACEHOLDER_CASES: readonly PlaceholderCase[] = [
  { what: 'body text', id: 'body', onContent: true, phType: 'body', box: (t) => t.body, color: (t) => t.bodyColor },
  { what: 'the title and closing slides\' subtitle', id: 'subtitle', onContent: false, phType: 'subTitle', box: (t) => t.heroSubtitle, color: (t) => t.subtitleColor },
  // Only the dense decks have a two-column slide.
  { what: 'the left column', id: 'left', onContent: true, phType: 'body', box: (t) => t.twoContent?.left, color: (t) => t.bodyColor, denseOnly: true },
  { what: 'the right column', id: 'right', onContent: true, phType: 'body', box: (t) => t.twoContent?.right, color: (t) => t.bodyColor, denseOnly: true },
];

describe.skipIf(!hasTools)('the rendered PDF of decks on company templates', () => {
  it.each(keys)('%s: every title inside its placeholder, in the template\'s colour, readable on the rendered background', (key) => {
    const d = deck(key);
    const t = d.template;
    const problems: string[] = [];
    d.pages.forEach((page, i) => {
      const title = titleOf(d, i);
      if (!title) return;
      const words = wordsOf(page, title, otherTexts(d, i, 'title'));
      if (words.length === 0) return problems.push(`${i + 1}: title "${title}" not found`);
      const box = isContent(d, i) ? t.title : undefined;
      for (const w of words) {
        if (box && !within(w, box)) problems.push(`${i + 1}: title word "${w.text}" at y ${w.y.toFixed(2)}–${(w.y + w.h).toFixed(2)} outside the placeholder ${box.y}–${box.y + box.h}`);
      }
      const samples = words.filter((w) => w.text.length >= 3).slice(0, 3);
      for (const w of samples) {
        const { ink, paper } = inkOn(page, w);
        const expected = isContent(d, i) ? t.titleColor : d.plan.slides[i]?.source_index === 0 ? t.heroTitleColor : null;
        if (expected && dist(ink, expected) > 90) problems.push(`${i + 1}: title "${w.text}" drawn in #${ink}, not the template's #${expected}`);
        if (contrastRatio(ink, paper) < 3) problems.push(`${i + 1}: title "${w.text}" #${ink} on #${paper}: ${contrastRatio(ink, paper).toFixed(2)}:1`);
      }
    });
    expect(problems.join('\n')).toBe('');
  });

  it.each(keys)('%s: subtitles and body text read on what is really behind them (≥ 3:1 measured from the pixels)', (key) => {
    const d = deck(key);
    const problems: string[] = [];
    d.pages.forEach((page, i) => {
      for (const el of d.plan.slides[i]?.elements ?? []) {
        if (el.kind !== 'text' || el.role === 'title' || el.fromMaster) continue;
        if ((el.paragraphs[0]?.sizePt ?? 0) < 16) continue;
        for (const w of wordsOf(page, el.paragraphs.map((p) => p.text).join(' '), otherTexts(d, i, el.role)).filter((w) => w.text.length >= 3).slice(0, 2)) {
          const { ink, paper } = inkOn(page, w);
          if (contrastRatio(ink, paper) < 3) problems.push(`${i + 1} ${el.role} "${w.text}": #${ink} on #${paper} ${contrastRatio(ink, paper).toFixed(2)}:1`);
        }
      }
    });
    expect(problems.join('\n')).toBe('');
  });

  it.each(PLACEHOLDER_CASES.flatMap((c) => keys.filter((key) => c.box(deck0(key)) !== undefined && !(c.denseOnly && key.endsWith('-sparse'))).map((key) => [key, c.what, c] as const)))(
    '%s: %s is the layout\'s placeholder: in its colour, inside its box, readable on the rendered pixels (WCAG)',
    (key, _what, c) => {
      const d = deck(key);
      const t = d.template;
      const problems: string[] = [];
      let checked = 0;
      d.pages.forEach((page, i) => {
        if (isContent(d, i) !== c.onContent) return;
        const el = d.plan.slides[i]?.elements.find((e) => e.kind === 'text' && e.id === c.id);
        if (el?.kind !== 'text') return;
        const sp = new RegExp(`<p:sp><p:nvSpPr><p:cNvPr id="\\d+" name="${c.id}"[\\s\\S]*?</p:sp>`).exec(d.slidesXml[i] ?? '')?.[0] ?? '';
        if (!new RegExp(`<p:ph type="${c.phType}" idx="\\d+"/>`).test(sp)) problems.push(`${i + 1}: the ${c.what} is not the layout's ${c.phType} placeholder`);
        const topLevel = (sp.match(/<a:p>[\s\S]*?<\/a:p>/g) ?? []).filter((para) => !/<a:pPr\b[^>]*\slvl="[1-8]"/.test(para));
        if (topLevel.some((para) => /<a:rPr\b[^>]*>(?:(?!<\/a:rPr>)[\s\S])*<a:solidFill>/.test(para))) problems.push(`${i + 1}: the ${c.what} sets its colour`);
        // Sub-bullets are set in another colour: only top-level words are read.
        const top = el.paragraphs.filter((p) => p.level === 0);
        const subs = el.paragraphs.filter((p) => p.level > 0).map((p) => p.text);
        // Words of other elements are left out (two columns share a role).
        const others = (d.plan.slides[i]?.elements ?? []).flatMap((e) => (e.kind === 'text' && e.id !== c.id ? e.paragraphs.map((p) => p.text) : []));
        const words = wordsOf(page, top.map((p) => p.text).join(' '), [...otherTexts(d, i, el.role), ...others, ...subs]);
        if (words.length === 0) problems.push(`${i + 1}: ${c.what} not found`);
        const box = c.box(t);
        if (!box) return;
        for (const w of words) if (!within(w, box)) problems.push(`${i + 1}: ${c.what} word "${w.text}" at ${w.x.toFixed(2)},${w.y.toFixed(2)} outside its placeholder`);
        const need = (top[0]?.sizePt ?? 0) >= 18 ? 3 : 4.5;
        for (const w of words.filter((w) => w.text.length >= 4).slice(0, 3)) {
          checked++;
          const { ink, paper } = inkOn(page, w);
          if (dist(ink, c.color(t)) > 90) problems.push(`${i + 1}: ${c.what} "${w.text}" drawn in #${ink}, not the template's #${c.color(t)}`);
          if (contrastRatio(ink, paper) < need) problems.push(`${i + 1}: ${c.what} "${w.text}" #${ink} on #${paper}: ${contrastRatio(ink, paper).toFixed(2)}:1 < ${need}:1`);
        }
      });
      expect(checked).toBeGreaterThan(0);
      expect(problems.join('\n')).toBe('');
    },
  );

  it.each(keys)('%s: the template\'s bullet character before every body paragraph, and the text where its level\'s indent puts it', (key) => {
    const d = deck(key);
    const t = d.template;
    const problems: string[] = [];
    let checked = 0;
    d.pages.forEach((page, i) => {
      if (!isContent(d, i)) return;
      const el = d.plan.slides[i]?.elements.find((e) => e.kind === 'text' && e.id === 'body');
      if (el?.kind !== 'text') return;
      for (const p of el.paragraphs.filter((p) => p.bullet === 'disc')) {
        const bullet = t.bullets[p.level];
        const first = p.text.split(/\s+/)[0] ?? '';
        // pdftotext joins a CJK line into one word: Latin paragraphs tell where a line starts.
        if (/[\u3000-\u9fff]/.test(first)) continue;
        // The paragraph's first word where it starts a line (not the same word inside another line).
        const word = page.words.find((w) => w.text === first && within(w, t.body) && page.words.some((b) => b.text === bullet?.char && Math.abs(b.y + b.h / 2 - (w.y + w.h / 2)) < 0.1 && b.x < w.x));
        if (!bullet || !word) {
          problems.push(`${i + 1}: no "${bullet?.char}" before "${first}" (level ${p.level + 1}); words: ${page.words.map((w) => w.text).join(' ').slice(0, 200)}`);
          continue;
        }
        checked++;
        const startsAt = word.x - t.body.x;
        if (Math.abs(startsAt - bullet.marginIn) > 0.08) problems.push(`${i + 1}: "${first}" starts ${startsAt.toFixed(2)} in into the body, not at the template's ${bullet.marginIn} in (level ${p.level + 1})`);
      }
    });
    expect(checked).toBeGreaterThan(0);
    expect(problems.join('\n')).toBe('');
  });

  it.each(BRAND_TEMPLATES.map((t) => [t.key, t] as const))('%s: the table\'s header and body rows are drawn in the template\'s table colours, readable on the rendered pixels (WCAG 4.5:1)', (key, t) => {
    const d = deck(`${key}-dense`);
    const i = d.plan.slides.findIndex((s) => s.elements.some((e) => e.kind === 'table'));
    const page = d.pages[i];
    if (!page) throw new Error('no table page');
    const problems: string[] = [];
    const check = (texts: readonly string[], fill: string, ink: string): void => {
      for (const text of texts) {
        const w = page.words.find((word) => word.text === text);
        if (!w) {
          problems.push(`"${text}" not found`);
          continue;
        }
        const seen = inkOn(page, w);
        if (dist(seen.paper, fill) > 30) problems.push(`"${text}" on #${seen.paper}, not #${fill}`);
        if (dist(seen.ink, ink) > 90) problems.push(`"${text}" drawn in #${seen.ink}, not #${ink}`);
        if (contrastRatio(seen.ink, seen.paper) < 4.5) problems.push(`"${text}" #${seen.ink} on #${seen.paper}: ${contrastRatio(seen.ink, seen.paper).toFixed(2)}:1`);
      }
    };
    check(['Region', 'Revenue', 'Margin'], t.table.headerFill, t.table.headerText);
    check(['North', 'West'], t.table.bodyFill ?? t.background, t.table.bodyText);
    expect(problems.join('\n')).toBe('');
  });

  it.each(keys)('%s: one footer per content slide, no word over the logo, the slide number clear of it, nothing off the slide', (key) => {
    const d = deck(key);
    const t = d.template;
    const problems: string[] = [];
    d.pages.forEach((page, i) => {
      const text = page.words.map((w) => w.text).join(' ');
      if (isContent(d, i)) {
        const ours = text.split('Quarterly').length - 1;
        const theirs = t.footerText ? text.split(t.footerText.split(' ')[0] ?? '').length - 1 : 0;
        if (ours + theirs !== 1) problems.push(`${i + 1}: ${ours} Folio footer(s) and ${theirs} template footer(s)`);
        for (const w of page.words) {
          if (intersects(w, t.logo)) problems.push(`${i + 1}: "${w.text}" over the logo`);
          const near = { x: t.logo.x - 0.08, y: t.logo.y - 0.08, w: t.logo.w + 0.16, h: t.logo.h + 0.16 };
          if (/^\d+$/.test(w.text) && intersects(w, near)) problems.push(`${i + 1}: slide number "${w.text}" crowds the logo`);
        }
      }
      for (const w of page.words) if (w.x < -0.02 || w.y < -0.02 || w.x + w.w > 13.36 || w.y + w.h > 7.52) problems.push(`${i + 1}: "${w.text}" off the slide`);
    });
    expect(problems.join('\n')).toBe('');
  });
});
