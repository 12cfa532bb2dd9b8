// Deck rendering at scale: a 100-slide mixed deck (bullets, charts, tables, images, two columns,
// Chinese and English text) rendered to .pptx, cold and warm, against raw pptxgenjs writing the same
// content without a layout engine (raw-deck.ts); and peak memory.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DeckSlide, DeckSpec } from '../src/shared/specs/deck';
import { renderDeck } from '../src/main/renderers/deck';
import { createTextMeasurer } from '../src/main/renderers/typesetting/fonts';
import { findTheme } from '../src/shared/specs/themes';
import { measurePeakRss, toMegabytes } from './memory-sampler';
import { writeRawDeck } from './raw-deck';
import { elapsedMs, median } from './stats';
import { type Bench, type BenchRow } from './types';

const SLIDES = 100;
const IMAGE = 'figure-pipeline.png';
const SAMPLE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'samples', 'deck-zh-talk');

const topics = ['检索 Retrieval', '抽取 Extraction', '综合 Synthesis', '评估 Evaluation', '部署 Deployment'];
const models = ['GPT-4o', 'Claude 3.5', 'Qwen2-72B', 'Llama-3-70B', '本文方法'];

function contentSlide(i: number): DeckSlide {
  const topic = topics[i % topics.length];
  switch (i % 5) {
    case 0:
      return {
        layout: 'bullets',
        title: `${topic}：要点 ${i}`,
        bullets: [
          `每年新增论文超过 ${300 + i} 万篇，人工综述难以跟上`,
          { text: 'LLM 擅长摘要，但容易产生幻觉 (hallucination)', sub: ['引用不可追溯 (no traceable citations)', '缺少对中文文献的支持'] },
          `Step ${i}: hybrid BM25 + dense retrieval keeps recall above 0.${70 + (i % 20)}`,
          '目标：可验证、可复现的自动综述流程',
        ],
        notes: `第 ${i} 页讲稿：强调可追溯性。`,
      };
    case 1:
      return {
        layout: 'chart',
        title: `主要结果 Results ${i}`,
        chart: {
          type: (['column', 'line', 'bar', 'area'] as const)[i % 4],
          categories: models,
          series: [
            { name: '引用准确率', values: models.map((_, k) => 60 + ((i * 7 + k * 5) % 30)) },
            { name: 'Recall', values: models.map((_, k) => 50 + ((i * 3 + k * 11) % 30)) },
          ],
          x_title: '模型',
          y_title: '得分',
          unit: '%',
        },
      };
    case 2:
      return {
        layout: 'table',
        title: `消融实验 Ablation ${i}`,
        table: {
          header: ['设置 Setting', '引用准确率', '召回率', '人工评分'],
          rows: Array.from({ length: 6 }, (_, r) => [`配置 ${r + 1} / config ${r + 1}`, (80 + ((i + r) % 10)).toFixed(1), (60 + ((i * r) % 15)).toFixed(1), (3 + (r % 2) * 0.5).toFixed(1)]),
        },
      };
    case 3:
      return { layout: 'image', title: `流水线示意 Pipeline ${i}`, image: IMAGE, caption: `图 ${i}：三阶段流水线 (three-stage pipeline)` };
    default:
      return {
        layout: 'two_column',
        title: `${topic}：对比 ${i}`,
        left: { bullets: ['检索：BM25 + dense retrieval 混合召回', '抽取：按字段抽取结论与证据', 'Every sentence carries its source page'] },
        right: { image: IMAGE, caption: `图 ${i}` },
      };
  }
}

export function benchDeckSpec(): DeckSpec {
  const slides: DeckSlide[] = [{ layout: 'title' }];
  for (let i = 1; i < SLIDES - 1; i++) slides.push(contentSlide(i));
  slides.push({ layout: 'closing', title: '谢谢！Q&A', subtitle: 'bench@example.edu' });
  return {
    title: '大语言模型辅助的文献综述：基准测试',
    subtitle: 'A 100-slide benchmark deck',
    author: 'Folio bench',
    theme: 'academic',
    aspect: '16:9',
    language: 'zh-CN',
    footer: 'Folio bench',
    slides,
  };
}

const WARM_RUNS = 5;

/** How the theme's faces are measured here: from font files (real metrics) or width tables. */
function metricsNote(spec: DeckSpec): string {
  const theme = findTheme(spec.theme);
  if (!theme) return 'unknown theme';
  const measurer = createTextMeasurer();
  const faces = [...new Set([theme.fonts.latinHeading, theme.fonts.latinBody, theme.fonts.cjkHeading, theme.fonts.cjkBody])];
  return faces.map((face) => `${face}: ${measurer.sourceOf(face).kind === 'font' ? 'font file' : 'width table'}`).join(', ');
}

async function run(): Promise<BenchRow[]> {
  const baseDir = mkdtempSync(join(tmpdir(), 'folio-bench-deck-'));
  try {
    copyFileSync(join(SAMPLE_DIR, IMAGE), join(baseDir, IMAGE));
    const spec = benchDeckSpec();
    const outDir = join(baseDir, 'artifacts');
    mkdirSync(outDir, { recursive: true });
    let rawCount = 0;
    const raw = async (compression = false): Promise<number> => {
      const started = performance.now();
      await writeRawDeck(spec, baseDir, join(outDir, `raw-${rawCount++}.pptx`), compression);
      return elapsedMs(started) / 1000;
    };
    const folio = async (): Promise<number> => {
      const started = performance.now();
      await renderDeck(spec, { baseDir, outDir });
      return elapsedMs(started) / 1000;
    };

    // Cold: the first render of each in this process. The baseline goes first, so Folio's cold figure
    // carries its own start-up (font discovery, font files parsed, Lucide, the planner's code) and
    // not pptxgenjs's.
    const rawCold = await raw(true);
    const started = performance.now();
    const { result, memory } = await measurePeakRss(() => renderDeck(spec, { baseDir, outDir }));
    const folioCold = elapsedMs(started) / 1000;
    const size = toMegabytes(statSync(result.path).size);
    const detail = `${result.slideCount} slides out, ${result.report.summary.issues} report issues, ${size.toFixed(1)} MB .pptx`;

    // Warm: alternate the two so a busy machine slows both alike; medians.
    const folioWarm: number[] = [];
    const rawWarm: number[] = [];
    const rawStoredWarm: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) {
      folioWarm.push(await folio());
      rawWarm.push(await raw(true));
      rawStoredWarm.push(await raw(false));
    }
    const rawStoredSize = toMegabytes(statSync(join(outDir, `raw-${rawCount - 1}.pptx`)).size);
    return [
      {
        name: `render ${SLIDES}-slide deck, cold`,
        folio: folioCold,
        baseline: rawCold,
        unit: 's',
        note: `${detail}; first render in a fresh process (font files loaded); baseline: raw pptxgenjs (deflated), first write in the process`,
      },
      {
        name: `render ${SLIDES}-slide deck, warm`,
        folio: median(folioWarm),
        baseline: median(rawWarm),
        unit: 's',
        target: '≤ 1.5',
        note: `median of ${WARM_RUNS}; real font metrics (${metricsNote(spec)}); baseline: raw pptxgenjs writing the same texts, charts, tables and pictures at fixed boxes, deflated as Folio's file is (bench/raw-deck.ts: no fitting, report or post-processing)`,
      },
      {
        name: `render ${SLIDES}-slide deck, warm, vs uncompressed`,
        folio: median(folioWarm),
        baseline: median(rawStoredWarm),
        unit: 's',
        note: `the same, against pptxgenjs's default of storing parts uncompressed (${rawStoredSize.toFixed(1)} MB file, no deflate at all)`,
      },
      { name: 'peak memory during render', folio: toMegabytes(memory.peakBytes - memory.startBytes), baseline: null, unit: 'MB', note: 'cold render: RSS peak minus RSS at start, sampled every 10 ms from a worker thread' },
    ];
  } finally {
    rmSync(baseDir, { recursive: true, force: true });
  }
}

const bench: Bench = { name: 'deck', run };
export default bench;
