import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { validateDeckSpec } from '../../../../shared/specs/deck';
import { BUILTIN_THEMES } from '../../../../shared/specs/themes';
import { canonicalIconName, closeIconNames, iconErrors, iconNames, iconNode } from '../icons';
import { drawIcon } from './icon';
import { drawContext, writeDeck } from './test-support';

const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const canRender = has('soffice') && has('pdftoppm');
const theme = BUILTIN_THEMES[1];
const tmp = mkdtempSync(join(tmpdir(), 'folio-icon-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const box = { x: 1, y: 1, w: 2, h: 2 };

async function iconDeck(): Promise<{ bytes: Uint8Array; media: Record<string, string> }> {
  const ctx = drawContext(theme);
  drawIcon(ctx, { kind: 'icon', id: 'icon', box, name: 'rocket', color: 'EA580C' });
  const { bytes, zip } = await writeDeck(ctx);
  const media: Record<string, string> = {};
  for (const name of Object.keys(zip.files).filter((n) => n.startsWith('ppt/media/'))) media[name] = (await zip.file(name)?.async('string')) ?? '';
  const slide = (await zip.file('ppt/slides/slide1.xml')?.async('string')) ?? '';
  expect(slide).toContain('asvg:svgBlip');
  return { bytes, media };
}

/** Reads a binary PPM (P6) as written by pdftoppm. */
function readPpm(buf: Buffer): { w: number; h: number; at: (x: number, y: number) => [number, number, number] } {
  const header = buf.toString('latin1', 0, 64).split(/\s+/);
  const w = Number(header[1]);
  const h = Number(header[2]);
  const offset = buf.length - w * h * 3;
  return { w, h, at: (x, y) => [buf[offset + (y * w + x) * 3], buf[offset + (y * w + x) * 3 + 1], buf[offset + (y * w + x) * 3 + 2]] };
}

describe('drawIcon', () => {
  it('embeds the Lucide icon as SVG in the media, stroked in the planned colour', async () => {
    const { media } = await iconDeck();
    const svgs = Object.entries(media).filter(([n]) => n.endsWith('.svg'));
    expect(svgs).toHaveLength(1);
    expect(svgs[0][1]).toContain('stroke="#EA580C"');
    expect(svgs[0][1]).toContain('<path');
  });

  it.skipIf(!canRender)('LibreOffice renders it: the icon colour appears inside the icon box and nowhere else', async () => {
    const { bytes } = await iconDeck();
    writeFileSync(join(tmp, 'icon.pptx'), bytes);
    // Own profile: another LibreOffice running on the machine would otherwise swallow the job.
    const profile = pathToFileURL(join(tmp, 'profile')).href;
    execFileSync('soffice', [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', 'pdf', '--outdir', tmp, join(tmp, 'icon.pptx')], { stdio: 'ignore', timeout: 120_000 });
    execFileSync('pdftoppm', ['-r', '30', '-singlefile', join(tmp, 'icon.pdf'), join(tmp, 'page')]);
    const img = readPpm(readFileSync(join(tmp, 'page.ppm')));
    const perIn = img.w / 13.333;
    let inside = 0;
    let outside = 0;
    for (let y = 0; y < img.h; y++) {
      for (let x = 0; x < img.w; x++) {
        const [r, g, b] = img.at(x, y);
        if (!(r > 180 && g > 60 && g < 130 && b < 60)) continue;
        const inBox = x >= box.x * perIn - 1 && x <= (box.x + box.w) * perIn + 1 && y >= box.y * perIn - 1 && y <= (box.y + box.h) * perIn + 1;
        if (inBox) inside++;
        else outside++;
      }
    }
    expect(inside).toBeGreaterThan(20);
    expect(outside).toBe(0);
  }, 150_000);
});

describe('icon names', () => {
  it('the name list comes from lucide-static', () => {
    expect(iconNames().length).toBeGreaterThan(1000);
    expect(iconNames()).toContain('chart-line');
  });

  it('an unknown icon is an error naming the field and close matches', () => {
    const r = validateDeckSpec({
      title: 'T',
      slides: [{ layout: 'cards', title: 'C', cards: [{ title: 'a', icon: 'rocket' }, { title: 'b', icon: 'chart-lines' }] }],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const errors = iconErrors(r.spec);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^slides\[0\]\.cards\[1\]\.icon: unknown icon "chart-lines"; close Lucide names: chart-line/);
    expect(closeIconNames('users-group')).toContain('users');
  });

  it('an alias the installed set has (waves) is accepted and drawn as the icon it names', () => {
    expect(canonicalIconName('waves')).toBe('waves-horizontal');
    expect(iconNode('waves')).toEqual(iconNode('waves-horizontal'));
    expect(canonicalIconName('waves-nonexistent')).toBeNull();
    const r = validateDeckSpec({ title: 'T', slides: [{ layout: 'cards', title: 'C', cards: [{ title: 'a', icon: 'waves' }, { title: 'b' }] }] });
    expect(r.ok && iconErrors(r.spec)).toEqual([]);
  });
});
