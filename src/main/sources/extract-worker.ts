// Worker-thread entry: extracts one file and posts progress per page and then the result. Running
// here keeps pdfjs's CPU work and memory off the main thread, and a stuck or crashing extraction can
// be terminated without taking the app down.
import fs from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { extractBytes } from './extract-in-thread';
import { type ExtractionResult } from './types';

export interface WorkerInput {
  path: string;
}

export type WorkerMessage =
  | { type: 'progress'; done: number; total: number | null }
  | { type: 'result'; result: ExtractionResult };

function post(message: WorkerMessage): void {
  parentPort?.postMessage(message);
}

function inputPath(data: unknown): string {
  if (typeof data === 'object' && data !== null && 'path' in data && typeof data.path === 'string') return data.path;
  throw new Error('extract-worker: workerData.path is missing');
}

async function main(): Promise<void> {
  const file = inputPath(workerData);
  let peakHeapBytes = v8.getHeapStatistics().used_heap_size;
  const bytes = new Uint8Array(await fs.readFile(file));
  const result = await extractBytes(bytes, path.basename(file), (done, total) => {
    peakHeapBytes = Math.max(peakHeapBytes, v8.getHeapStatistics().used_heap_size);
    post({ type: 'progress', done, total });
  });
  peakHeapBytes = Math.max(peakHeapBytes, v8.getHeapStatistics().used_heap_size);
  post({
    type: 'result',
    result: { ...result, worker: { threadId, maxRssBytes: process.resourceUsage().maxRSS * 1024, peakHeapBytes } },
  });
}

main().catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  post({ type: 'result', result: { status: 'error', markdown: '', pages: null, message: `extraction failed: ${message}` } });
});
