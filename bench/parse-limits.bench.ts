// Heavy parsing off the main thread: web_fetch's HTML → markdown of the two pages that
// took node-html-markdown a minute on the main thread (a 1.16 MB table: 61 s; a 760 KB paragraph
// of links: 71 s), and a .docx zip bomb (about 1 MB unpacking to 400 MB: before, a 419 MB cache and
// 2.8 GB RSS). For each: the time to an answer, and the main thread's event-loop delay meanwhile,
// which is what keeps the UI and the API responsive. The workers run from source (through tsx).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { extractFile } from '../src/main/sources/extract';
import { docxBombBytes } from '../src/main/sources/testing';
import { convertHtmlInWorker } from '../src/main/tools/net/html-in-worker';
import { linkPage, tablePage } from '../src/main/tools/net/testing-pages';
import { WEB_FETCH_MAX_CHARS } from '../src/main/tools/web-fetch';
import { measurePeakRss, toMegabytes } from './memory-sampler';
import { elapsedMs } from './stats';
import { type Bench, type BenchRow } from './types';

interface Measured {
  seconds: number;
  delayP99Ms: number;
  worstDelayMs: number;
  growthMb: number;
}

async function measure(work: () => Promise<unknown>): Promise<Measured> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const started = performance.now();
  const { memory } = await measurePeakRss(work);
  const seconds = elapsedMs(started) / 1000;
  loop.disable();
  return { seconds, delayP99Ms: loop.percentile(99) / 1e6, worstDelayMs: loop.max / 1e6, growthMb: toMegabytes(memory.peakBytes - memory.startBytes) };
}

function rows(label: string, m: Measured, before: string): BenchRow[] {
  return [
    { name: `${label}: seconds to an answer`, folio: m.seconds, baseline: null, unit: 's', note: before },
    { name: `${label}: main-thread event-loop delay p99`, folio: m.delayP99Ms, baseline: null, unit: 'ms', target: '< 50 ms', note: `worst ${m.worstDelayMs.toFixed(0)} ms` },
  ];
}

const bench: Bench = {
  name: 'parse-limits',
  async run() {
    const out: BenchRow[] = [];
    const table = tablePage();
    out.push(...rows('web_fetch 1.16 MB table', await measure(() => convertHtmlInWorker(table, 'https://example.com/', { maxChars: WEB_FETCH_MAX_CHARS })), 'before: 61 s, main thread blocked'));
    const links = linkPage();
    out.push(...rows('web_fetch 760 KB links', await measure(() => convertHtmlInWorker(links, 'https://example.com/', { maxChars: WEB_FETCH_MAX_CHARS })), 'before: 71 s, main thread blocked'));

    const dir = mkdtempSync(join(tmpdir(), 'folio-bench-bomb-'));
    try {
      const bytes = await docxBombBytes(400);
      const file = join(dir, 'bomb.docx');
      writeFileSync(file, bytes);
      let message = '';
      const m = await measure(async () => {
        const result = await extractFile(file);
        message = result.message ?? result.status;
      });
      if (!message.startsWith('too large')) throw new Error(`the zip bomb was not refused: ${message}`);
      const size = `${(bytes.length / 1024).toFixed(0)} KB file`;
      out.push(...rows(`.docx zip bomb (${size})`, m, 'before: 419 MB cache'));
      out.push({ name: '.docx zip bomb: peak RSS growth', folio: m.growthMb, baseline: null, unit: 'MB', note: 'before: 2.8 GB RSS' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return out;
  },
};

export default bench;
