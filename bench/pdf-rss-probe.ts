// Run by pdf-extract.bench.ts in a process of its own: extracts the given PDFs with the given
// worker bundle (spare first, then the pool reused) and prints the process's peak RSS in MB, so
// the figure is an extraction's whole footprint (main thread + workers) without the bench's own
// baggage (vite, the other rows' heaps).
import { extractFile, prewarmExtraction, stopPrewarm, useCodeCacheDir, useWorkerScript } from '../src/main/sources/extract';
import { measurePeakRss, toMegabytes } from './memory-sampler';
import { elapsedMs } from './stats';

const [script, ...pdfs] = process.argv.slice(2);
useWorkerScript(script);
// pdfjs's code cache as the app keeps it (the bench made it before).
useCodeCacheDir(process.env.FOLIO_BENCH_CODE_CACHE || null);
const seconds: number[] = [];
let threads = 1;
const { memory } = await measurePeakRss(async () => {
  await prewarmExtraction();
  for (const pdf of pdfs) {
    for (let i = 0; i < 2; i += 1) {
      const started = performance.now();
      const result = await extractFile(pdf, { timeoutMs: 600_000 });
      if (result.status !== 'ok') throw new Error(`${pdf}: ${result.message ?? result.status}`);
      seconds.push(elapsedMs(started) / 1000);
      threads = Math.max(threads, result.worker?.threads ?? 1);
    }
  }
});
stopPrewarm();
process.stdout.write(`${JSON.stringify({ peakMb: toMegabytes(memory.peakBytes), startMb: toMegabytes(memory.startBytes), seconds, threads })}\n`);
process.exit(0);
