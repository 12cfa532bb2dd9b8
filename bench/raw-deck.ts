// The bench's baseline: the same deck content written with raw pptxgenjs, as a script without a
// layout engine would. Every text, chart series, table cell and picture of the spec goes on its slide
// at fixed boxes, with no measuring, fitting, splitting, report or post-processing. It is what Folio
// costs on top of pptxgenjs itself, not a deck anyone should present.
import PptxGenJS from 'pptxgenjs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DeckSlide, DeckSpec } from '../src/shared/specs/deck';

type Bullets = Extract<DeckSlide, { layout: 'bullets' }>['bullets'];

const TITLE = { x: 0.5, y: 0.3, w: 12.3, h: 0.9, fontSize: 28, bold: true };
const BODY = { x: 0.5, y: 1.4, w: 12.3, h: 5.4 };

function bulletRuns(bullets: Bullets): PptxGenJS.TextProps[] {
  return bullets.flatMap((b) => {
    const item = typeof b === 'string' ? { text: b, sub: [] as string[] } : b;
    return [
      { text: item.text, options: { bullet: true, breakLine: true } },
      ...(item.sub ?? []).map((s) => ({ text: s, options: { bullet: true, indentLevel: 1, breakLine: true } })),
    ];
  });
}

function addSlide(pptx: PptxGenJS, s: DeckSlide, baseDir: string): void {
  const slide = pptx.addSlide();
  const title = 'title' in s && typeof s.title === 'string' ? s.title : '';
  if (title) slide.addText(title, TITLE);
  switch (s.layout) {
    case 'bullets':
      slide.addText(bulletRuns(s.bullets), { ...BODY, fontSize: 20 });
      break;
    case 'chart': {
      const data = s.chart.series.map((series) => ({ name: series.name, labels: s.chart.categories, values: series.values }));
      const type = s.chart.type === 'column' || s.chart.type === 'bar' ? 'bar' : s.chart.type;
      slide.addChart(type, data, { ...BODY, barDir: s.chart.type === 'bar' ? 'bar' : 'col', showLegend: true, showValAxisTitle: true, valAxisTitle: s.chart.y_title ?? '' });
      break;
    }
    case 'table':
      slide.addTable([s.table.header, ...s.table.rows].map((row) => row.map((text) => ({ text }))), { ...BODY, fontSize: 14 });
      break;
    case 'image':
      slide.addImage({ path: join(baseDir, s.image), ...BODY, h: 4.8 });
      if (s.caption) slide.addText(s.caption, { x: 0.5, y: 6.3, w: 12.3, h: 0.5, fontSize: 14 });
      break;
    case 'two_column':
      if (s.left.bullets) slide.addText(bulletRuns(s.left.bullets), { ...BODY, w: 6, fontSize: 20 });
      if (s.right.image) slide.addImage({ path: join(baseDir, s.right.image), x: 6.8, y: 1.4, w: 6, h: 4.5 });
      if (s.right.caption) slide.addText(s.right.caption, { x: 6.8, y: 6.0, w: 6, h: 0.5, fontSize: 14 });
      break;
    case 'closing':
      if (s.subtitle) slide.addText(s.subtitle, { ...BODY, fontSize: 20 });
      break;
    default:
      break;
  }
  if (s.notes) slide.addNotes(s.notes);
}

/**
 * Writes `spec` with raw pptxgenjs to `outPath` (the bench deck's layouts; others get their title
 * only). pptxgenjs stores its parts uncompressed unless asked (`compression`); Folio's files are
 * deflated, so the like-for-like baseline compresses too.
 */
export async function writeRawDeck(spec: DeckSpec, baseDir: string, outPath: string, compression = false): Promise<void> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE';
  pptx.title = spec.title;
  for (const s of spec.slides) addSlide(pptx, s, baseDir);
  // pptxgenjs 4.0.1's write() drops `compression` for a nodebuffer; stream() honours it (and is a nodebuffer).
  const bytes = compression ? await pptx.stream({ compression: true }) : await pptx.write({ outputType: 'nodebuffer' });
  writeFileSync(outPath, bytes as Uint8Array);
}
