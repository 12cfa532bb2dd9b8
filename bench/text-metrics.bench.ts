// Text measurement at deck scale: 100 slides' worth of paragraphs (3,000: titles, bullets, table
// cells; Chinese, English and mixed) measured and wrapped with the font-file measurer, against the
// width-table measurer on the same text. Cold includes resolving faces and parsing the font files.
import { FontMeasurer, tableMeasurer } from '../src/main/renderers/typesetting/fonts';
import { type TextMeasurer, type MeasureStyle } from '../src/main/renderers/typesetting/text-measurer';
import { elapsedMs } from './stats';
import { type Bench, type BenchRow } from './types';

const PARAGRAPHS = 3_000;
const zh = ['检索增强生成', '引用准确率', '人工综述难以跟上', '可验证、可复现的自动综述流程', '缺少对中文文献的支持'];
const en = ['hybrid BM25 + dense retrieval', 'keeps recall above 0.8', 'traceable citations', 'state-of-the-art models', 'Local-first tools'];

function corpus(): { text: string; style: MeasureStyle; width: number }[] {
  const out: { text: string; style: MeasureStyle; width: number }[] = [];
  for (let i = 0; i < PARAGRAPHS; i++) {
    const text = `${zh[i % zh.length]} ${en[(i * 3) % en.length]}，第 ${i} 项提升 ${i % 97}% 的效率 ${en[(i * 7) % en.length]} ${zh[(i * 2) % zh.length]}。`;
    const bold = i % 10 === 0;
    const style: MeasureStyle = { fonts: { latin: i % 2 ? 'Arial' : 'Times New Roman', cjk: 'Noto Sans CJK SC' }, sizePt: bold ? 32 : 20 + (i % 5), bold };
    out.push({ text, style, width: 200 + (i % 7) * 60 });
  }
  return out;
}

function run(measurer: TextMeasurer, items: ReturnType<typeof corpus>): number {
  const started = performance.now();
  let lines = 0;
  for (const { text, style, width } of items) {
    lines += measurer.wrap(text, style, width).length;
    measurer.widthPt(text, style);
  }
  if (lines === 0) throw new Error('no lines');
  return elapsedMs(started);
}

export const bench: Bench = {
  name: 'text metrics',
  run: () => {
    const items = corpus();
    const font = new FontMeasurer();
    const cold = run(font, items);
    const warm = run(font, items);
    const table = run(tableMeasurer, items);
    const rows: BenchRow[] = [
      { name: `ms to measure + wrap ${PARAGRAPHS} paragraphs, font files (cold)`, folio: cold, baseline: table, unit: 'ms', note: 'baseline: width tables' },
      { name: `ms to measure + wrap ${PARAGRAPHS} paragraphs, font files (warm)`, folio: warm, baseline: table, unit: 'ms', note: 'baseline: width tables' },
    ];
    return Promise.resolve(rows);
  },
};
