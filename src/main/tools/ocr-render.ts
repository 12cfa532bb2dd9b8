// PDF pages as PNG images, through poppler's command-line tools (pdfinfo for the page count,
// pdftoppm to render). Each run is time-limited and abortable; temporary files are always removed.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { makeScratchDir, removeScratchDir } from '../workspace/scratch';
import { errnoCode } from './text';
import { ToolError, ToolTimeoutError } from './types';

export interface RenderedPage {
  page: number;
  png: Uint8Array;
}

export interface PopplerOptions {
  signal?: AbortSignal;
  /** Per command. Default 60 s: a complex vector page can be slow to rasterise. */
  timeoutMs?: number;
  /** Environment of the commands (tests point PATH at an empty folder). Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** What poppler is needed for, in the "not found" message. Default: OCR. */
  purpose?: string;
}

/** Providers reject large images (OpenAI: 20 MB); a page over this is re-rendered smaller. */
export const MAX_PAGE_PNG_BYTES = 8 * 1024 * 1024;
/** Long side, in pixels, of a page re-rendered because it was too large at the requested dpi (posters, A0 plans). */
const FALLBACK_LONG_SIDE_PX = 2400;

export function popplerMissing(command: string, purpose = 'OCR renders PDF pages'): ToolError {
  return new ToolError(
    `${command} was not found: ${purpose} with poppler. Install the poppler-utils package ` +
      '(Debian/Ubuntu: apt install poppler-utils; macOS: brew install poppler; Windows: a poppler build on PATH).',
  );
}

interface RunResult {
  stdout: string;
  stderr: string;
}

/** Runs one poppler command, time-limited and abortable; failures become ToolErrors. */
export function runPoppler(command: string, args: string[], opts: PopplerOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        timeout: opts.timeoutMs ?? 60_000,
        killSignal: 'SIGKILL',
        maxBuffer: 4 * 1024 * 1024,
        windowsHide: true,
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.env ? { env: opts.env } : {}),
      },
      (err, stdout, stderr) => {
        if (!err) return resolve({ stdout, stderr });
        if (errnoCode(err) === 'ENOENT') return reject(popplerMissing(command, opts.purpose));
        if (opts.signal?.aborted) return reject(new ToolError(`${command} was cancelled.`));
        if ('killed' in err && err.killed) return reject(new ToolTimeoutError(Math.round((opts.timeoutMs ?? 60_000) / 1000), `${command} took longer than ${Math.round((opts.timeoutMs ?? 60_000) / 1000)} s and was stopped.`));
        const detail = stderr.trim().split('\n').slice(-3).join(' ').slice(0, 300);
        reject(new ToolError(`${command} failed${detail ? `: ${detail}` : ''}.`));
      },
    );
  });
}

/** The number of pages of a PDF, from `pdfinfo`. */
export async function countPdfPages(pdfAbs: string, opts: PopplerOptions = {}): Promise<number> {
  const { stdout } = await runPoppler('pdfinfo', [pdfAbs], opts);
  const match = /^Pages:\s+(\d+)\s*$/mu.exec(stdout);
  if (!match) throw new ToolError('pdfinfo did not report a page count; the PDF may be damaged.');
  return Number(match[1]);
}

/** Renders the given pages (1-based) to PNG at `dpi`, one pdftoppm run per page. */
export async function renderPdfPages(pdfAbs: string, pages: readonly number[], dpi: number, opts: PopplerOptions = {}): Promise<RenderedPage[]> {
  const dir = await makeScratchDir('folio-ocr-');
  try {
    const out: RenderedPage[] = [];
    for (const page of pages) {
      const prefix = path.join(dir, `p${page}`);
      const range = ['-f', String(page), '-l', String(page), '-singlefile'];
      await runPoppler('pdftoppm', ['-png', '-r', String(dpi), ...range, pdfAbs, prefix], opts);
      let png = await fs.readFile(`${prefix}.png`);
      if (png.length > MAX_PAGE_PNG_BYTES) {
        await runPoppler('pdftoppm', ['-png', '-scale-to', String(FALLBACK_LONG_SIDE_PX), ...range, pdfAbs, prefix], opts);
        png = await fs.readFile(`${prefix}.png`);
      }
      await fs.rm(`${prefix}.png`, { force: true });
      out.push({ page, png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength) });
    }
    return out;
  } finally {
    await removeScratchDir(dir);
  }
}
