// LibreOffice (headless) as a converter to PDF: the one place Folio starts soffice, used by the PDF
// export and by the rendered-slide check of decks. LibreOffice exits 0 even when it could not
// convert, so the PDF itself is the only proof of success. One conversion runs at a time: soffice is
// heavy, and two instances that share a profile block each other.
//
// `FOLIO_SOFFICE` overrides where soffice is looked for: a path to the executable to use, or a path
// that does not exist to behave as if LibreOffice were not installed (tests, and people who want
// the export button hidden).
import { spawn } from 'node:child_process';
import { programEnv } from '../sandbox/env';
import { sandboxed, sandboxStatus } from '../sandbox/sandbox';
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { makeScratchDirSync, removeScratchDirSync } from '../workspace/scratch';
import { basename, delimiter, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FolioError } from '../../shared/errors';

export const SOFFICE_ENV = 'FOLIO_SOFFICE';

const STDERR_KEEP = 2000;

/** Where LibreOffice lives when it is not on PATH (the macOS app bundle, the Windows installer). */
const WELL_KNOWN = [
  '/Applications/LibreOffice.app/Contents/MacOS/soffice',
  'C:\\Program Files\\LibreOffice\\program\\soffice.exe',
  'C:\\Program Files (x86)\\LibreOffice\\program\\soffice.exe',
];

/** LibreOffice is not installed (or `FOLIO_SOFFICE` points at nothing executable). */
export class SofficeMissingError extends FolioError {
  constructor(message = 'LibreOffice is not installed.') {
    super('unsupported', message, { name: 'SofficeMissingError' });
  }
}

let cached: { key: string; path: string | null } | null = null;

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findSoffice(override: string | undefined, searchPath: string): string | null {
  if (override !== undefined && override !== '') return isExecutable(override) ? override : null;
  const names = process.platform === 'win32' ? ['soffice.exe', 'soffice.com'] : ['soffice', 'libreoffice'];
  for (const dir of searchPath.split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return WELL_KNOWN.find(isExecutable) ?? null;
}

/** The LibreOffice executable, or null when it is not installed. Cached per PATH and override. */
export function sofficePath(): string | null {
  const override = process.env[SOFFICE_ENV];
  const searchPath = process.env.PATH ?? '';
  const key = `${override ?? ''}\u0000${searchPath}`;
  if (cached?.key !== key) cached = { key, path: findSoffice(override, searchPath) };
  return cached.path;
}

// Conversions run one after another (the warm converter's too); a failed one must not stall the queue.
let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs `job` after the conversions before it. One whose `signal` aborts while it waits settles at
 * once with `cancelled()` (the job, when its turn comes, finds the signal aborted and starts nothing);
 * once started, the job itself answers the abort.
 */
export function serialised<T>(job: () => Promise<T>, signal?: AbortSignal, cancelled?: () => Error): Promise<T> {
  let started = false;
  const start = () => {
    started = true;
    return job();
  };
  const run = queue.then(start, start);
  queue = run.catch(() => undefined);
  if (!signal || !cancelled) return run;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      if (!started) reject(cancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    run.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export interface ConvertOptions {
  /** Kill LibreOffice after this long. */
  timeoutMs: number;
  /** Stops a queued or running conversion (the process group is killed). */
  signal?: AbortSignal;
  /** How the input is named in error messages (default: its file name). */
  label?: string;
  /** Folders the sandboxed conversion must not see (the data folder: keys, other tasks). */
  hiddenPaths?: readonly string[];
  /**
   * The export filter and its options after "pdf:" in `--convert-to`, e.g.
   * `impress_pdf_Export:{"ExportNotesPages":…}`. Default: LibreOffice's own choice for the file.
   */
  filter?: string;
}

export function cancelled(label: string): FolioError {
  return new FolioError('cancelled', `The conversion of ${label} to PDF was cancelled.`);
}

/**
 * Converts one file (.pptx, .docx, …) to PDF in a private folder of the scratch and returns the PDF's bytes.
 * Throws SofficeMissingError when LibreOffice is not installed, FolioError('tool_error') when it
 * fails, hangs past `timeoutMs` or writes no PDF, FolioError('cancelled') when `signal` aborts.
 */
export function convertToPdf(inputAbs: string, opts: ConvertOptions): Promise<Uint8Array> {
  const soffice = sofficePath();
  if (!soffice) return Promise.reject(new SofficeMissingError());
  return serialised(() => convertUnqueued(inputAbs, opts), opts.signal, () => cancelled(opts.label ?? basename(inputAbs)));
}

/** convertToPdf's work, for a caller that already holds the queue (the warm converter's fallback). */
export async function convertUnqueued(inputAbs: string, opts: ConvertOptions): Promise<Uint8Array> {
  const label = opts.label ?? basename(inputAbs);
  const soffice = sofficePath();
  if (!soffice) throw new SofficeMissingError();
  if (opts.signal?.aborted) throw cancelled(label);
  const work = makeScratchDirSync('folio-pdf-');
  try {
    const outDir = join(work, 'out');
    await runSoffice(soffice, inputAbs, work, outDir, join(work, 'profile'), opts, label);
    const produced = join(outDir, `${basename(inputAbs, extname(inputAbs))}.pdf`);
    if (!existsSync(produced) || statSync(produced).size === 0) {
      throw new FolioError('tool_error', `LibreOffice could not convert ${label} (no PDF was produced).`);
    }
    return new Uint8Array(readFileSync(produced));
  } finally {
    removeScratchDirSync(work);
  }
}

/**
 * Runs one conversion with a fresh profile (a person's running LibreOffice keeps its own profile
 * locked). soffice forks a child that does the work, so it is started in its own process group and
 * the whole group is killed on timeout or abort.
 */
function runSoffice(soffice: string, input: string, work: string, outDir: string, profileDir: string, opts: ConvertOptions, label: string): Promise<void> {
  const { timeoutMs, signal } = opts;
  const args = [
    '--headless',
    '--norestore',
    `-env:UserInstallation=${pathToFileURL(profileDir).href}`,
    '--convert-to',
    opts.filter ? `pdf:${opts.filter}` : 'pdf',
    '--outdir',
    outDir,
    input,
  ];
  // The files converted were written by the model: LibreOffice runs in the commands' sandbox (no
  // network, the data folder hidden, only its temporary folder writable, the input and the
  // executable bound back read-only, since a FOLIO_SOFFICE wrapper may live under /tmp).
  const confined = sandboxed(soffice, args, { writableRoot: work, hiddenPaths: opts.hiddenPaths ?? [], readablePaths: [input, soffice], network: false });
  const env = programEnv(process.env, { sandboxed: sandboxStatus().active, network: false });
  return new Promise((resolve, reject) => {
    // Sandboxed, killing bwrap's group ends the whole PID namespace, soffice.bin included.
    const detached = process.platform !== 'win32';
    const child = spawn(confined?.file ?? soffice, confined?.args ?? args, { stdio: ['ignore', 'ignore', 'pipe'], detached, windowsHide: true, env });
    let stderr = '';
    let stopped: 'timeout' | 'abort' | null = null;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < STDERR_KEEP) stderr += chunk;
    });
    const stop = (why: 'timeout' | 'abort') => {
      stopped ??= why;
      killTree(child.pid, detached, () => child.kill('SIGKILL'));
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const onAbort = () => stop('abort');
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    let settled = false;
    const done = () => {
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (err) => {
      if (settled) return;
      done();
      reject(new FolioError('tool_error', `LibreOffice could not be started for ${label}: ${err.message}`));
    });
    const finish = (code: number | null, sig: NodeJS.Signals | null) => {
      if (settled) return;
      done();
      if (stopped === 'abort') {
        reject(cancelled(label));
      } else if (stopped === 'timeout') {
        reject(new FolioError('tool_error', `LibreOffice did not finish converting ${label} within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}; it was stopped.`));
      } else if (code !== 0) {
        const detail = stderr.trim().split('\n').slice(-3).join(' ').slice(0, 400);
        const how = sig ? `was killed (${sig})` : `exited with code ${code ?? '?'}`;
        reject(new FolioError('tool_error', `LibreOffice could not convert ${label}: it ${how}${detail ? `: ${detail}` : ''}.`));
      } else {
        resolve();
      }
    };
    // A finished conversion settles once its stderr is read whole; a stopped one as soon as the
    // process it was started as has gone, since a process that left the group may hold stderr open.
    child.on('close', finish);
    child.on('exit', (code, sig) => {
      if (!stopped) return;
      child.stderr.destroy();
      finish(code, sig);
    });
  });
}

function killTree(pid: number | undefined, detached: boolean, fallback: () => void): void {
  if (pid === undefined) return;
  try {
    if (detached) process.kill(-pid, 'SIGKILL');
    else fallback();
  } catch {
    fallback();
  }
}
