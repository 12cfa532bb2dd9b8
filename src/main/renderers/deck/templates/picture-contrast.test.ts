// Text on a template picture (a photo background) is read against the picture's own pixels under
// each text box: set in a colour that reads there, or given a scrim when nothing reads on every part.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PptxGenJS from 'pptxgenjs';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { type DeckPlan, type TextElement } from '../../../../shared/specs/deck-plan';
import { contrastRatio, MIN_TEXT_CONTRAST } from '../../../../shared/specs/themes';
import { renderDeck } from '../index';
import { importTemplate } from './store';

const work = mkdtempSync(join(tmpdir(), 'picture-contrast-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A 160 × 90 PNG painted by `colour(x, y)` (RGB). */
function png(colour: (x: number, y: number) => [number, number, number]): Buffer {
  const img = new PNG({ width: 160, height: 90 });
  for (let y = 0; y < 90; y++) {
    for (let x = 0; x < 160; x++) {
      const [r, g, b] = colour(x, y);
      img.data.set([r, g, b, 255], (y * 160 + x) * 4);
    }
  }
  return PNG.sync.write(img);
}

async function photoTemplate(picture: Buffer): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE';
  const ph = (name: string, type: 'title' | 'body', box: { x: number; y: number; w: number; h: number }) => ({ placeholder: { options: { name, type, ...box }, text: '' } });
  pptx.defineSlideMaster({
    title: 'Photo Content',
    background: { data: `image/png;base64,${picture.toString('base64')}` },
    objects: [ph('title', 'title', { x: 0.6, y: 0.4, w: 11, h: 1 }), ph('body', 'body', { x: 0.6, y: 1.7, w: 12, h: 4.8 })],
  });
  pptx.addSlide({ masterName: 'Photo Content' });
  return (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
}

async function render(name: string, picture: Buffer): Promise<{ plan: DeckPlan; issues: string[] }> {
  const templatesDir = join(work, `${name}-templates`);
  const record = await importTemplate(templatesDir, await photoTemplate(picture), `${name}.pptx`);
  const out = await renderDeck(
    { title: 'Field notes', theme: record.id, slides: [{ layout: 'bullets', title: 'What we saw on site', bullets: ['Water levels rose in March', 'Two pumps failed', 'Repairs took a week'] }] } as never,
    { baseDir: work, outDir: join(work, name), templatesDir, fileName: `${name}.pptx` },
  );
  return { plan: out.plan, issues: out.report.slides.flatMap((s) => s.issues.filter((i) => i.kind === 'low_contrast').map((i) => i.message)) };
}

const texts = (plan: DeckPlan): TextElement[] => (plan.slides[0]?.elements ?? []).filter((e): e is TextElement => e.kind === 'text' && !e.fromMaster);

describe('text on a template picture', () => {
  it('on a dark photo, title and bullets are set in a colour that reads on its pixels', async () => {
    const { plan, issues } = await render('dark-photo', png(() => [0x20, 0x24, 0x2a]));
    for (const el of texts(plan)) {
      for (const p of el.paragraphs) expect(contrastRatio(p.color, '20242A'), `${el.role} #${p.color}`).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    }
    expect(plan.slides[0]?.elements.some((e) => e.kind === 'shape' && e.id.endsWith('-scrim'))).toBe(false);
    expect(issues).toEqual([]);
  });

  it('on a picture half light and half dark under the text, the text gets a scrim it reads on', async () => {
    // Stripes 8 px wide: no text colour reads on both.
    const { plan, issues } = await render('stripes', png((x) => (Math.floor(x / 8) % 2 === 0 ? [0xf4, 0xf4, 0xf4] : [0x10, 0x10, 0x10])));
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
