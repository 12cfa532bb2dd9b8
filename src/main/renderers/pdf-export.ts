// PDF export of a rendered deck or document through LibreOffice (headless). LibreOffice exits 0 even
// when it could not convert, so the PDF itself is the only proof of success; it is parsed to count
// pages before it is kept. One conversion runs at a time: soffice is heavy, and two instances that
// share a profile block each other.
//
// `FOLIO_SOFFICE` overrides where soffice is looked for: a path to the executable to use, or a path
// that does not exist to behave as if LibreOffice were not installed (tests, and people who want
// the export button hidden).
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FolioError, NotFoundError } from '../../shared/errors';
import { writeArtifactAtomic } from '../artifacts/write-artifact';
import { resolveTaskPath, toRelative } from '../workspace/task-paths';

export const SOFFICE_ENV = 'FOLIO_SOFFICE';
export const DEFAULT_EXPORT_TIMEOUT_MS = 120_000;

export const SOFFICE_MISSING_MESSAGE =
  'Exporting PDF needs LibreOffice: install libreoffice-impress and libreoffice-writer ' +
  '(Debian/Ubuntu: apt-get install libreoffice-impress libreoffice-writer; macOS: brew install --cask libreoffice; ' +
  'Windows: https://www.libreoffice.org/download).';

const EXPORTABLE = new Set(['.pptx', '.docx']);
const STDERR_KEEP = 2000;

/** Where LibreOffice lives when it is not on PATH (the macOS app bundle, the Windows installer). */
const WELL_KNOWN = [
  '/Applications/LibreOffice.app/Contents/MacOS/soffice',
  'C:\\Program Files\\LibreOffice\\program\\soffice.exe',
  'C:\\Program Files (x86)\\LibreOffice\\program\\soffice.exe',
];

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

// Conversions run one after another; a failed one must not stall the queue.
let queue: Promise<unknown> = Promise.resolve();

function serialised<T>(job: () => Promise<T>): Promise<T> {
  const run = queue.then(job, job);
  queue = run.catch(() => undefined);
  return run;
}

export interface ExportPdfOptions {
  /** Kill LibreOffice after this long (default 120 s). */
  timeoutMs?: number;
}

export interface ExportPdfResult {
  /** The PDF, relative to the task folder (next to its source, versioned: never overwrites). */
  path: string;
  pages: number;
}

/** Converts `artifacts/….pptx|.docx` to a PDF beside it; returns the PDF's task-relative path and page count. */
export async function exportPdf(taskRoot: string, relPath: string, opts: ExportPdfOptions = {}): Promise<ExportPdfResult> {
  const { abs, rel, area } = resolveTaskPath({ task: taskRoot, work: taskRoot }, relPath, { access: 'read' });
  if (area !== 'artifact' || !EXPORTABLE.has(extname(abs).toLowerCase())) {
    throw new FolioError('invalid_input', `Only .pptx and .docx files in artifacts/ can be exported to PDF (got ${rel}).`);
  }
  if (!existsSync(abs) || !statSync(abs).isFile()) throw new NotFoundError(`No file ${rel} in this task`);
  const soffice = sofficePath();
  if (!soffice) throw new FolioError('unsupported', SOFFICE_MISSING_MESSAGE);

  return serialised(async () => {
    const work = mkdtempSync(join(tmpdir(), 'folio-pdf-'));
    try {
      const outDir = join(work, 'out');
      await runSoffice(soffice, abs, outDir, join(work, 'profile'), opts.timeoutMs ?? DEFAULT_EXPORT_TIMEOUT_MS, rel);
      const stem = basename(abs, extname(abs));
      const produced = join(outDir, `${stem}.pdf`);
      if (!existsSync(produced) || statSync(produced).size === 0) {
        throw new FolioError('tool_error', `LibreOffice could not convert ${rel} (no PDF was produced).`);
      }
      const bytes = new Uint8Array(readFileSync(produced));
      const pages = await countPdfPages(bytes, rel);
      const written = writeArtifactAtomic(dirname(abs), `${stem}.pdf`, bytes);
      return { path: toRelative(taskRoot, written), pages };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
}

/**
 * Runs one conversion with a fresh profile (a person's running LibreOffice keeps its own profile
 * locked). soffice forks a child that does the work, so it is started in its own process group and
 * the whole group is killed on timeout.
 */
function runSoffice(soffice: string, input: string, outDir: string, profileDir: string, timeoutMs: number, rel: string): Promise<void> {
  const args = [
    '--headless',
    '--norestore',
    `-env:UserInstallation=${pathToFileURL(profileDir).href}`,
    '--convert-to',
    'pdf',
    '--outdir',
    outDir,
    input,
  ];
  return new Promise((resolve, reject) => {
    const detached = process.platform !== 'win32';
    const child = spawn(soffice, args, { stdio: ['ignore', 'ignore', 'pipe'], detached, windowsHide: true });
    let stderr = '';
    let timedOut = false;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < STDERR_KEEP) stderr += chunk;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      killTree(child.pid, detached, () => child.kill('SIGKILL'));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new FolioError('tool_error', `LibreOffice could not be started for ${rel}: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) {
        reject(new FolioError('tool_error', `LibreOffice did not finish converting ${rel} within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}; it was stopped.`));
      } else if (code !== 0) {
        const detail = stderr.trim().split('\n').slice(-3).join(' ').slice(0, 400);
        const how = signal ? `was killed (${signal})` : `exited with code ${code ?? '?'}`;
        reject(new FolioError('tool_error', `LibreOffice could not convert ${rel}: it ${how}${detail ? `: ${detail}` : ''}.`));
      } else {
        resolve();
      }
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

async function countPdfPages(data: Uint8Array, rel: string): Promise<number> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  try {
    // pdfjs transfers the buffer to its worker; give it a copy so `data` can still be written out.
    const doc = await pdfjs.getDocument({ data: data.slice(), isEvalSupported: false, disableFontFace: true }).promise;
    try {
      return doc.numPages;
    } finally {
      await doc.destroy();
    }
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new FolioError('tool_error', `LibreOffice could not convert ${rel}: the PDF it wrote is unreadable (${message}).`);
  }
}
