// Text on a template picture (a photo background) is read against the picture's own pixels under
// each text box: set in a colour that reads there, or given a scrim when nothing reads on every part.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PptxGenJS from 'pptxgenjs';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { type DeckPlan, type TextElement } from '../../../../shared/specs/deck-plan';
import { contrastRatio, MIN_TEXT_CONTRAST } from '../../../../shared/specs/themes';
import { renderDeck } from '../index';
import { importTemplate } from './store';

const work = mkdtempSync(join(tmpdir(), 'picture-contrast-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Format = 'png' | 'jpeg';
interface Picture {
  bytes: Buffer;
  mime: string;
}

/** A 160 × 90 picture painted by `colour(x, y)` (RGB), as a PNG or a JPEG (how photos usually come). */
function picture(format: Format, colour: (x: number, y: number) => [number, number, number]): Picture {
  const width = 160;
  const height = 90;
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = colour(x, y);
      data.set([r, g, b, 255], (y * width + x) * 4);
    }
  }
  if (format === 'jpeg') return { bytes: jpeg.encode({ data, width, height }, 90).data, mime: 'image/jpeg' };
  const img = new PNG({ width, height });
  data.copy(img.data);
  return { bytes: PNG.sync.write(img), mime: 'image/png' };
}

async function photoTemplate(picture: Picture): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE';
  const ph = (name: string, type: 'title' | 'body', box: { x: number; y: number; w: number; h: number }) => ({ placeholder: { options: { name, type, ...box }, text: '' } });
  pptx.defineSlideMaster({
    title: 'Photo Content',
    background: { data: `${picture.mime};base64,${picture.bytes.toString('base64')}` },
    objects: [ph('title', 'title', { x: 0.6, y: 0.4, w: 11, h: 1 }), ph('body', 'body', { x: 0.6, y: 1.7, w: 12, h: 4.8 })],
  });
  pptx.addSlide({ masterName: 'Photo Content' });
  return (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
}

async function render(name: string, picture: Picture): Promise<{ plan: DeckPlan; issues: string[] }> {
  const templatesDir = join(work, `${name}-templates`);
  const record = await importTemplate(templatesDir, await photoTemplate(picture), `${name}.pptx`);
  const out = await renderDeck(
    { title: 'Field notes', theme: record.id, slides: [{ layout: 'bullets', title: 'What we saw on site', bullets: ['Water levels rose in March', 'Two pumps failed', 'Repairs took a week'] }] } as never,
    { baseDir: work, outDir: join(work, name), templatesDir, fileName: `${name}.pptx` },
  );
  return { plan: out.plan, issues: out.report.slides.flatMap((s) => s.issues.filter((i) => i.kind === 'low_contrast').map((i) => i.message)) };
}

const texts = (plan: DeckPlan): TextElement[] => (plan.slides[0]?.elements ?? []).filter((e): e is TextElement => e.kind === 'text' && !e.fromMaster);

describe.each(['png', 'jpeg'] as const)('text on a template picture (%s)', (format) => {
  it('on a dark photo, title and bullets are set in a colour that reads on its pixels', async () => {
    const { plan, issues } = await render(`dark-photo-${format}`, picture(format, () => [0x20, 0x24, 0x2a]));
    for (const el of texts(plan)) {
      for (const p of el.paragraphs) expect(contrastRatio(p.color, '20242A'), `${el.role} #${p.color}`).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    }
    expect(plan.slides[0]?.elements.some((e) => e.kind === 'shape' && e.id.endsWith('-scrim'))).toBe(false);
    expect(issues).toEqual([]);
  });

  it('on a picture half light and half dark under the text, the text gets a scrim it reads on', async () => {
    // Stripes 8 px wide: no text colour reads on both.
    const { plan, issues } = await render(`stripes-${format}`, picture(format, (x) => (Math.floor(x / 8) % 2 === 0 ? [0xf4, 0xf4, 0xf4] : [0x10, 0x10, 0x10])));
    const elements = plan.slides[0]?.elements ?? [];
    const body = elements.find((e): e is TextElement => e.kind === 'text' && e.role === 'body');
    const scrimAt = elements.findIndex((e) => e.kind === 'shape' && e.id === `${body?.id}-scrim`);
    expect(scrimAt).toBeGreaterThanOrEqual(0);
    expect(scrimAt).toBeLessThan(elements.indexOf(body as TextElement));
    const scrim = elements[scrimAt];
    const fill = scrim?.kind === 'shape' ? (scrim.fill ?? '') : '';
    for (const p of body?.paragraphs ?? []) expect(contrastRatio(p.color, fill)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(issues).toEqual([]);
  });
});
