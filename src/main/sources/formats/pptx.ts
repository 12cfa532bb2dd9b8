// PPTX → one page per slide, in presentation order, with the speaker notes under each slide.
import type JSZip from 'jszip';
import { type ExtractionResult, type ProgressFn } from '../types';
import { pageMarker } from './markdown';
import { attribute, decodeEntities, elements, openTags, relationships, resolvePart } from './xml';

/** Paragraph texts of a DrawingML fragment: `<a:t>` runs joined within each `<a:p>`, `<a:br/>` kept. */
export function paragraphs(xml: string): string[] {
  const out: string[] = [];
  for (const p of elements(xml, 'a:p')) {
    const text = Array.from(p.matchAll(/<a:t(?:\s[^>]*)?>([\s\S]*?)<\/a:t>|<a:br\s*\/?>/gu), (m) => (m[0].startsWith('<a:br') ? '\n' : decodeEntities(m[1] ?? ''))).join('');
    if (text.trim() !== '') out.push(text.trim());
  }
  return out;
}

/** Notes text from the body placeholder only; the notes page also holds the slide number and image. */
function notesText(xml: string): string {
  const bodies = elements(xml, 'p:sp').filter((sp) => /<p:ph[^>]*type="body"/u.test(sp));
  return paragraphs(bodies.join('\n')).join('\n');
}

function slideNumber(part: string): number {
  return Number(/(\d+)\.xml$/u.exec(part)?.[1] ?? 0);
}

async function slideOrder(zip: JSZip): Promise<string[]> {
  const numeric = Object.keys(zip.files)
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/u.test(name))
    .sort((a, b) => slideNumber(a) - slideNumber(b));
  // The real order is sldIdLst in presentation.xml; file numbers go stale when slides are moved.
  const presentation = await zip.file('ppt/presentation.xml')?.async('string');
  const rels = await zip.file('ppt/_rels/presentation.xml.rels')?.async('string');
  if (!presentation || !rels) return numeric;
  const byId = relationships(rels, 'ppt');
  const ordered = openTags(presentation, 'p:sldId')
    .map((tag) => byId.get(attribute(tag, 'r:id') ?? '')?.target)
    .filter((t): t is string => t !== undefined && zip.file(t) !== null);
  return ordered.length > 0 ? ordered : numeric;
}

export async function extractPptx(zip: JSZip, onProgress: ProgressFn): Promise<ExtractionResult> {
  const slides = await slideOrder(zip);
  const parts: string[] = [];
  for (const [i, part] of slides.entries()) {
    const n = i + 1;
    const xml = (await zip.file(part)?.async('string')) ?? '';
    const lines = [pageMarker(n), `## Slide ${n}`, '', ...paragraphs(xml)];
    const dir = part.slice(0, part.lastIndexOf('/'));
    const relsXml = await zip.file(`${dir}/_rels/${part.slice(dir.length + 1)}.rels`)?.async('string');
    if (relsXml) {
      const notesPart = [...relationships(relsXml, dir).values()].find((r) => r.type.endsWith('/notesSlide'))?.target;
      const notesXml = notesPart ? await zip.file(resolvePart('', notesPart))?.async('string') : undefined;
      const notes = notesXml ? notesText(notesXml) : '';
      if (notes !== '') lines.push('', `> Notes: ${notes.replace(/\n/gu, '\n> ')}`);
    }
    parts.push(lines.join('\n'));
    onProgress(n, slides.length);
  }
  return { status: 'ok', markdown: `${parts.join('\n\n')}\n`, pages: slides.length };
}
