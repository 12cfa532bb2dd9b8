// The import preview draws what each template layout paints behind the samples: a dark photo
// background is dark in the preview, a title bar is there, not the theme's background colour alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PptxGenJS from 'pptxgenjs';
import { afterAll, describe, expect, it } from 'vitest';
import { solidPng } from '../verify/testing';
import { BRAND_TEMPLATES, buildBrandTemplate } from './brand-templates.test-support';
import { templatePreview } from './preview';
import { importTemplate } from './store';

const work = mkdtempSync(join(tmpdir(), 'template-preview-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A template whose content master is a full-bleed dark photo (a picture background, no colour). */
async function photoTemplate(): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE';
  const ph = (name: string, type: 'title' | 'body', box: { x: number; y: number; w: number; h: number }) => ({ placeholder: { options: { name, type, ...box }, text: '' } });
  pptx.defineSlideMaster({
    title: 'Photo Content',
    background: { data: `image/png;base64,${solidPng(64, 36).toString('base64')}` },
    objects: [ph('title', 'title', { x: 0.6, y: 0.4, w: 11, h: 1 }), ph('body', 'body', { x: 0.6, y: 1.7, w: 12, h: 4.8 })],
  });
  pptx.addSlide({ masterName: 'Photo Content' });
  return (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
}

describe('the template import preview shows what the template paints', () => {
  it('a picture background is drawn as that picture, covering the slide', async () => {
    const dir = join(work, 'photo');
    const record = await importTemplate(dir, await photoTemplate(), 'Photo.pptx');
    const preview = await templatePreview(dir, record.id);
    expect(preview.backdrops).toHaveLength(preview.plan.slides.length);
    const content = preview.plan.slides.findIndex((s) => s.master === 'content');
    const back = preview.backdrops[content]?.[0];
    expect(back).toMatchObject({ x: 0, y: 0, w: 1, h: 1 });
    expect(back?.image).toMatch(/^data:image\/png;base64,/);
    expect(Buffer.from(back?.image?.split(',')[1] ?? '', 'base64').equals(solidPng(64, 36))).toBe(true);
  });

  it('a colour background and the master\'s title bar are drawn in the template\'s colours; a dark master is dark', async () => {
    const dir = join(work, 'brand');
    const bar = BRAND_TEMPLATES.find((t) => t.key === 'bar');
    const dark = BRAND_TEMPLATES.find((t) => t.key === 'dark');
    if (!bar || !dark) throw new Error('brand templates missing');
    const barRecord = await importTemplate(dir, await buildBrandTemplate(bar), 'bar.pptx');
    const barPreview = await templatePreview(dir, barRecord.id);
    const content = barPreview.plan.slides.findIndex((s) => s.master === 'content');
    const layers = barPreview.backdrops[content] ?? [];
    expect(layers[0]).toMatchObject({ x: 0, y: 0, w: 1, h: 1, color: bar.background });
    const band = layers.find((l) => l.color === bar.band?.color);
    expect(band?.y).toBeCloseTo(0, 2);
    expect(band?.h).toBeCloseTo((bar.band?.box.h ?? 0) / 7.5, 2);
    // The title slide is drawn on the title layout's own background.
    const hero = barPreview.plan.slides.findIndex((s, i) => s.master === 'plain' && barPreview.layouts[i] === barPreview.layouts[0]);
    expect(barPreview.backdrops[hero]?.[0]?.color).toBe(bar.heroBackground);

    const darkRecord = await importTemplate(dir, await buildBrandTemplate(dark), 'dark.pptx');
    const darkPreview = await templatePreview(dir, darkRecord.id);
    for (const [i, s] of darkPreview.plan.slides.entries()) {
      expect(darkPreview.backdrops[i]?.[0]?.color, `slide ${i + 1}`).toMatch(s.master === 'content' ? new RegExp(`^${dark.background}$`) : new RegExp(`^(${dark.heroBackground}|${dark.background})$`));
    }
  });
});

describe('the template import preview speaks the screen\'s language', () => {
  const words = (preview: Awaited<ReturnType<typeof templatePreview>>): string[] =>
    preview.plan.slides.flatMap((s) => s.elements.flatMap((e) => (e.kind === 'text' ? e.paragraphs.map((p) => p.text) : [])));

  it('writes the sample slides in Chinese for a Chinese screen and in English otherwise', async () => {
    const dir = join(work, 'language');
    const record = await importTemplate(dir, await photoTemplate(), 'Photo.pptx');
    const zh = words(await templatePreview(dir, record.id, 'zh-CN'));
    expect(zh).toContain('季度回顾');
    // No English on a Chinese screen: only the product's name, units and numbers are Latin.
    const latin = zh.flatMap((w) => w.match(/[A-Za-z]+/gu) ?? []).filter((w) => w !== 'Folio' && w !== 'pp');
    expect(latin).toEqual([]);
    const en = words(await templatePreview(dir, record.id, 'en'));
    expect(en).toContain('Quarterly review');
    expect(en.join(' ')).not.toMatch(/\p{Script=Han}/u);
  });
});
