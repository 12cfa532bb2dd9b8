// A LibreOffice kept running between conversions, for the rendered-slide check, which converts the
// deck of every render: a fresh soffice spends seconds starting for each file, a warm one converts a
// 20-slide deck in about a second. It is LibreOffice's own UNO bridge (Debian's python3-uno) driven
// by a small Python loop, as unoserver does: soffice listens on a private pipe, the loop loads each
// file hidden and stores it as PDF, one JSON line per job each way.
//
// Robustness, since the process outlives a call:
// - everything (bwrap, Python, soffice) is one process group, killed whole on timeout, abort,
//   failure to start, idle (IDLE_MS) and this process's exit, so nothing is left behind;
// - a converter that died or hung is replaced at the next conversion; a timeout is a typed error;
// - its profile and pipe are private to it (in its own scratch folder), so it never shares a profile
//   with another LibreOffice (a person's, a test's, the cold converter's);
// - it runs in the commands' sandbox like the cold conversion, with only its folder writable: each
//   input is copied in there, and the PDF read back from there.
// Without python3-uno (or with an export filter asked for) the cold conversion runs instead.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { FolioError } from '../../shared/errors';
import { programEnv } from '../sandbox/env';
import { sandboxed, sandboxStatus } from '../sandbox/sandbox';
import { makeScratchDirSync, removeScratchDirSync } from '../workspace/scratch';
import { cancelled, type ConvertOptions, convertToPdf, convertUnqueued as convertToPdfCold, serialised, SofficeMissingError, sofficePath } from './soffice';

/** A converter unused this long is stopped: LibreOffice idles at ~150 MB. */
const IDLE_MS = 120_000;
const STDERR_KEEP = 2000;

/** Debian's interpreter, which python3-uno installs `uno` for (a python3 earlier on PATH may be another). */
const PYTHON_CANDIDATES = ['/usr/bin/python3'];

const SERVER = String.raw`
import json, subprocess, sys, time
import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException

def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p

def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()

soffice, profile, pipe = sys.argv[1], sys.argv[2], sys.argv[3]
office = subprocess.Popen([soffice, "--headless", "--invisible", "--nologo", "--nodefault", "--norestore", "--nolockcheck",
    "-env:UserInstallation=" + profile, "--accept=pipe,name=" + pipe + ";urp;StarOffice.ComponentContext"],
    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
local = uno.getComponentContext()
resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
ctx = None
while ctx is None:
    if office.poll() is not None:
        send({"ready": False, "error": "LibreOffice exited with code %d while starting" % office.returncode})
        sys.exit(1)
    try:
        ctx = resolver.resolve("uno:pipe,name=" + pipe + ";urp;StarOffice.ComponentContext")
    except NoConnectException:
        time.sleep(0.05)
desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
send({"ready": True})

FILTERS = [("com.sun.star.presentation.PresentationDocument", "impress_pdf_Export"),
           ("com.sun.star.text.GenericTextDocument", "writer_pdf_Export"),
           ("com.sun.star.sheet.SpreadsheetDocument", "calc_pdf_Export"),
           ("com.sun.star.drawing.DrawingDocument", "draw_pdf_Export")]

for line in sys.stdin:
    job = json.loads(line)
    doc = None
    try:
        doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(job["input"]), "_blank", 0, (prop("Hidden", True), prop("ReadOnly", True)))
        if doc is None:
            raise RuntimeError("the file could not be opened")
        name = next((f for s, f in FILTERS if doc.supportsService(s)), "writer_pdf_Export")
        doc.storeToURL(uno.systemPathToFileUrl(job["output"]), (prop("FilterName", name),))
        send({"id": job["id"], "ok": True})
    except Exception as e:
        send({"id": job["id"], "ok": False, "error": str(e)[:400]})
    finally:
        if doc is not None:
            try:
                doc.close(True)
            except Exception:
                doc.dispose()
office.terminate()
office.wait(10)
`;

let pythonCache: { soffice: string; python: string | null } | null = null;

/** A Python that can load LibreOffice's UNO bridge for this soffice, or null. Probed once per soffice. */
export function unoPython(): string | null {
  const soffice = sofficePath();
  if (!soffice) return null;
  if (pythonCache?.soffice !== soffice) {
    const python = PYTHON_CANDIDATES.find((p) => existsSync(p) && spawnSync(p, ['-c', 'import uno'], { stdio: 'ignore', timeout: 10_000 }).status === 0) ?? null;
    pythonCache = { soffice, python };
  }
  return pythonCache.python;
}

/** The converter did not come up (LibreOffice exited, or the loop could not reach it). */
class StartError extends FolioError {
  constructor(reason: string) {
    super('tool_error', `LibreOffice could not be started as a converter: ${reason}`, { name: 'StartError' });
  }
}

/** The converter's process ended before it answered (killed, crashed). */
class GoneError extends FolioError {
  constructor(message: string) {
    super('tool_error', message, { name: 'GoneError' });
  }
}

interface Reply {
  id?: number;
  ok?: boolean;
  ready?: boolean;
  error?: string;
}

function timeoutText(timeoutMs: number): string {
  return timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`;
}

/** One running LibreOffice with its Python loop, its folder and its process group. */
class WarmConverter {
  readonly work = makeScratchDirSync('folio-soffice-warm-');
  private readonly child: ChildProcess;
  private readonly replies: AsyncIterator<string>;
  private stderr = '';
  private jobs = 0;
  private exited = false;
  private readonly gone: Promise<void>;
  readonly ready: Promise<void>;

  constructor(
    readonly soffice: string,
    python: string,
    readonly hiddenKey: string,
    hiddenPaths: readonly string[],
  ) {
    mkdirSync(join(this.work, 'jobs'));
    const pipe = `folio-${process.pid}-${basename(this.work)}`;
    const args = ['-c', SERVER, soffice, pathToFileURL(join(this.work, 'profile')).href, pipe];
    const confined = sandboxed(python, args, { writableRoot: this.work, hiddenPaths, readablePaths: [soffice, python], network: false });
    const env = programEnv(process.env, { sandboxed: sandboxStatus().active, network: false });
    this.child = spawn(confined?.file ?? python, confined?.args ?? args, { stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32', windowsHide: true, env });
    live.add(this);
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (chunk: string) => {
      if (this.stderr.length < STDERR_KEEP) this.stderr += chunk;
    });
    this.gone = new Promise((resolve) => {
      this.child.on('exit', () => {
        this.exited = true;
        resolve();
      });
      this.child.on('error', () => {
        this.exited = true;
        resolve();
      });
    });
    // A closed stdin (the converter killed) must not throw in this process.
    this.child.stdin?.on('error', () => undefined);
    this.replies = createInterface({ input: this.child.stdout! })[Symbol.asyncIterator]();
    this.ready = this.next().then(
      (reply) => {
        if (!reply.ready) throw new StartError(reply.error ?? 'no reason given');
      },
      (err: unknown) => {
        throw new StartError(err instanceof Error ? err.message : String(err));
      },
    );
    this.ready.catch(() => this.kill());
    this.idle();
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Conversions asked of this converter. */
  get used(): number {
    return this.jobs;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The next JSON line from the loop; its exit is a typed error. */
  private async next(): Promise<Reply> {
    const line = await this.replies.next().catch(() => ({ done: true as const, value: undefined }));
    if (line.done) {
      const detail = this.stderr.trim().split('\n').slice(-3).join(' ').slice(0, 400);
      throw new GoneError(`LibreOffice stopped${detail ? `: ${detail}` : ''}.`);
    }
    return JSON.parse(line.value) as Reply;
  }

  /** While no job runs, the converter does not keep this process alive, and it stops after IDLE_MS. */
  private idleTimer: NodeJS.Timeout | null = null;
  private idle(): void {
    this.child.unref();
    for (const s of [this.child.stdin, this.child.stdout, this.child.stderr]) (s as { unref?: () => void } | null)?.unref?.();
    this.idleTimer = setTimeout(() => this.stop(), IDLE_MS);
    this.idleTimer.unref();
  }

  private busy(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.child.ref();
    for (const s of [this.child.stdin, this.child.stdout, this.child.stderr]) (s as { ref?: () => void } | null)?.ref?.();
  }

  /** Converts one file; the caller serialises. */
  async convert(inputAbs: string, label: string, timeoutMs: number, signal?: AbortSignal): Promise<Uint8Array> {
    const id = ++this.jobs;
    const input = join(this.work, 'jobs', `${id}${extname(inputAbs)}`);
    const output = join(this.work, 'jobs', `${id}.pdf`);
    this.busy();
    let stopped: 'timeout' | 'abort' | null = null;
    let answered = false;
    let halt: () => void = () => undefined;
    // Settles when the conversion is stopped: the stop must not wait on the converter's pipes, which
    // a process that outlived the kill would hold open.
    const halted = new Promise<'halted'>((resolve) => {
      halt = () => resolve('halted');
    });
    const stop = (why: 'timeout' | 'abort') => {
      stopped ??= why;
      this.kill();
      halt();
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const onAbort = () => stop('abort');
    signal?.addEventListener('abort', onAbort, { once: true });
    const work = async (): Promise<Uint8Array> => {
      copyFileSync(inputAbs, input);
      await this.ready;
      if (stopped) throw new GoneError('stopped');
      this.child.stdin?.write(`${JSON.stringify({ id, input, output })}\n`);
      const reply = await this.next();
      if (reply.id !== id) throw new FolioError('tool_error', `LibreOffice answered out of turn converting ${label}.`);
      answered = true;
      if (!reply.ok) throw new FolioError('tool_error', `LibreOffice could not convert ${label}: ${reply.error ?? 'no reason given'}.`);
      if (!existsSync(output) || statSync(output).size === 0) throw new FolioError('tool_error', `LibreOffice could not convert ${label} (no PDF was produced).`);
      return new Uint8Array(readFileSync(output));
    };
    try {
      if (signal?.aborted) throw cancelled(label);
      const working = work();
      // Once stopped, what the work throws later is of no interest.
      working.catch(() => undefined);
      const result = await Promise.race([working, halted]);
      if (result === 'halted') throw new GoneError('stopped');
      return result;
    } catch (err) {
      // A caller told "stopped" finds the converter's process gone (its whole group was killed).
      if (stopped) await this.gone;
      if (stopped === 'abort') throw cancelled(label);
      if (stopped === 'timeout') throw new FolioError('tool_error', `LibreOffice did not finish converting ${label} within ${timeoutText(timeoutMs)}; it was stopped.`);
      // A file LibreOffice could not read leaves it as it was; anything else, and it is not used again.
      if (!answered) this.kill();
      throw err;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      rmSync(input, { force: true });
      rmSync(output, { force: true });
      if (this.alive) this.idle();
    }
  }

  /** Asks the loop to close LibreOffice, and kills the group if it has not gone a few seconds later. */
  stop(): void {
    if (current === this) current = null;
    if (!this.alive) return this.kill();
    this.child.stdin?.end();
    const timer = setTimeout(() => this.kill(), 5000);
    timer.unref();
    this.child.once('exit', () => {
      clearTimeout(timer);
      this.kill();
    });
  }

  /** Kills the whole group (bwrap, Python, soffice) at once and removes the folder. */
  kill(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const pid = this.child.pid;
    if (pid !== undefined) {
      try {
        if (process.platform !== 'win32') process.kill(-pid, 'SIGKILL');
        else this.child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    }
    this.exited = true;
    live.delete(this);
    if (current === this) current = null;
    removeScratchDirSync(this.work);
  }
}

const live = new Set<WarmConverter>();
let current: WarmConverter | null = null;
let exitHook = false;

function converterFor(soffice: string, python: string, hiddenPaths: readonly string[]): WarmConverter {
  const hiddenKey = JSON.stringify(hiddenPaths);
  if (current && (!current.alive || current.soffice !== soffice || current.hiddenKey !== hiddenKey)) current.stop();
  if (!current?.alive) current = new WarmConverter(soffice, python, hiddenKey, hiddenPaths);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', stopWarmConverters);
  }
  return current;
}

/**
 * Converts one file to PDF as convertToPdf does (same errors), through the warm converter when
 * python3-uno is there, starting it if needed.
 */
export function convertToPdfWarm(inputAbs: string, opts: ConvertOptions): Promise<Uint8Array> {
  const soffice = sofficePath();
  if (!soffice) return Promise.reject(new SofficeMissingError());
  const python = unoPython();
  if (!python || opts.filter) return convertToPdf(inputAbs, opts);
  const label = opts.label ?? basename(inputAbs);
  return serialised(async () => {
    // Aborted while it waited its turn: no converter is started for it.
    if (opts.signal?.aborted) throw cancelled(label);
    const converter = converterFor(soffice, python, opts.hiddenPaths ?? []);
    try {
      try {
        return await converter.convert(inputAbs, label, opts.timeoutMs, opts.signal);
      } catch (err) {
        // One that died since its last conversion (crashed, killed) is replaced once.
        if (!(err instanceof GoneError) || converter.used < 2) throw err;
        return await converterFor(soffice, python, opts.hiddenPaths ?? []).convert(inputAbs, label, opts.timeoutMs, opts.signal);
      }
    } catch (err) {
      // A LibreOffice that would not start as a server may still convert the cold way (and if it
      // cannot, that conversion says why, as it always has).
      if (err instanceof StartError) return convertToPdfCold(inputAbs, opts);
      throw err;
    }
  }, opts.signal, () => cancelled(label));
}

/**
 * Starts the warm converter now if none runs, so LibreOffice starts while the caller does other work
 * (the deck being built, about as long as LibreOffice's start); the next conversion with the same
 * hidden paths uses it, and one that fails to start is replaced by that conversion as usual.
 */
export function prestartWarmConverter(hiddenPaths: readonly string[] = []): void {
  const soffice = sofficePath();
  const python = soffice ? unoPython() : null;
  if (!soffice || !python || current?.alive) return;
  converterFor(soffice, python, hiddenPaths);
}

/** Stops every warm converter now (tests, and this process's exit). */
export function stopWarmConverters(): void {
  for (const converter of [...live]) converter.kill();
}

/** The warm converter's process group, while one runs (tests). */
export function warmConverterPid(): number | undefined {
  return current?.alive ? current.pid : undefined;
}
