// Test support for element drawers: a one-slide deck to draw into, written to bytes and read back.
// XML is read with small regexes over parts pptxgenjs writes in a fixed shape (as pptx-inspect does).
import JSZip from 'jszip';
import PptxGenJS from 'pptxgenjs';
import { type Theme } from '../../../../shared/specs/themes';
import { tableMeasurer } from '../../typesetting/fonts';
import { type TextMeasurer } from '../../typesetting/text-measurer';
import { type DrawContext } from './context';

export function drawContext(theme: Theme, baseDir = '.', emojiFace: string | null = null, measurer: TextMeasurer = tableMeasurer): DrawContext {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE';
  return { pptx, slide: pptx.addSlide(), theme, cjkLang: 'zh-CN', baseDir, emojiFace, measurer };
}

export async function writeDeck(ctx: DrawContext): Promise<{ bytes: Uint8Array; zip: JSZip }> {
  const bytes = (await ctx.pptx.write({ outputType: 'nodebuffer' })) as Uint8Array;
  return { bytes, zip: await JSZip.loadAsync(bytes) };
}

export async function partText(zip: JSZip, part: string): Promise<string> {
  const text = await zip.file(part)?.async('string');
  if (text === undefined) throw new Error(`${part} is missing`);
  return text;
}

/** Every `<tag>…</tag>` block (non-nested tags only, which is what is asked for here). */
export function blocks(xml: string, tag: string): string[] {
  return Array.from(xml.matchAll(new RegExp(`<${tag}>[\\s\\S]*?</${tag}>`, 'g')), (m) => m[0]);
}

/** The `val` attribute of every `<tag val="…"/>`. */
export function vals(xml: string, tag: string): string[] {
  return Array.from(xml.matchAll(new RegExp(`<${tag} val="([^"]*)"`, 'g')), (m) => m[1] ?? '');
}

/** The srgbClr colours of the first `<c:spPr>` in a block (the series' own fill). */
export function firstFill(xml: string): string | undefined {
  const spPr = /<c:spPr>([\s\S]*?)<\/c:spPr>/.exec(xml)?.[1] ?? '';
  return /<a:srgbClr val="([0-9A-Fa-f]{6})"/.exec(spPr)?.[1]?.toUpperCase();
}

/** The chart parts of a deck (pptxgenjs numbers charts across every deck in the process, not from 1). */
export function chartParts(zip: JSZip): string[] {
  return Object.keys(zip.files).filter((n) => /^ppt\/charts\/chart\d+\.xml$/.test(n));
}
