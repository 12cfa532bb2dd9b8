// Peak resident memory during a piece of work. The sampling runs in a worker thread because the
// renderers keep the main thread busy for long synchronous stretches, when a main-thread timer
// would never fire; RSS is process-wide, so the worker sees the main thread's allocations.
import { Worker } from 'node:worker_threads';

const SAMPLER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const peak = new Float64Array(workerData.buffer);
const sample = () => { const rss = process.memoryUsage.rss(); if (rss > peak[0]) peak[0] = rss; };
sample();
setInterval(sample, workerData.intervalMs);
parentPort.postMessage('ready');
`;

export interface MemoryMeasurement {
  /** RSS when sampling started, bytes. */
  startBytes: number;
  /** Highest RSS seen while sampling, bytes. */
  peakBytes: number;
}

/** Runs fn while sampling RSS every `intervalMs`; returns fn's result and the memory seen. */
export async function measurePeakRss<T>(fn: () => Promise<T>, intervalMs = 10): Promise<{ result: T; memory: MemoryMeasurement }> {
  const buffer = new SharedArrayBuffer(8);
  const peak = new Float64Array(buffer);
  const worker = new Worker(SAMPLER_SOURCE, { eval: true, workerData: { buffer, intervalMs } });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  // The worker's own footprint is in the start figure, so only the work's growth is reported.
  const startBytes = process.memoryUsage.rss();
  peak[0] = startBytes;
  try {
    const result = await fn();
    const endBytes = process.memoryUsage.rss();
    return { result, memory: { startBytes, peakBytes: Math.max(peak[0], endBytes) } };
  } finally {
    await worker.terminate();
  }
}

export const toMegabytes = (bytes: number): number => bytes / (1024 * 1024);
