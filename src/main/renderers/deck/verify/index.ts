// The rendered-slide check: converts the finished .pptx to PDF with LibreOffice, reads back where
// every word landed, and compares that with the boxes the layout planned (checks.ts). It never
// throws for a missing or failing LibreOffice: the result then says the report is estimated, and
// why, and carries only what the plan alone shows. Only a cancelled signal rejects.
import { FolioError } from '../../../../shared/errors';
import { type QualityReport, type ReportCheck } from '../../../../shared/specs/deck';
import { SofficeMissingError, sofficePath } from '../../soffice';
import { convertToPdfWarm } from '../../soffice-warm';
import { mergeRepeatedIssues } from '../report';
import { checkPlannedSlide, checkRenderedSlide } from './checks';
import { readPdfWords } from './pdf-words';
import { tokenize } from './tokens';
import { type VerifiedSlide, type VerifyInput, type VerifyResult } from './types';

export type { FixedText, PlannedBox, PlannedBoxRole, PlannedSlide, Rect, VerifiedSlide, VerifyInput, VerifyResult } from './types';

/** LibreOffice needs seconds to start and well under a second per slide; this leaves room on a slow machine. */
const BASE_TIMEOUT_MS = 60_000;
const PER_SLIDE_TIMEOUT_MS = 2_000;

export const SOFFICE_MISSING_REASON = 'LibreOffice not installed';
const NOT_RENDERED = 'the slides were not rendered';

export interface VerifyOptions {
  /** Kill LibreOffice after this long (default: 60 s + 2 s per slide). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Folders LibreOffice must not see (Folio's data folder): it runs sandboxed on the task's file. */
  hiddenPaths?: readonly string[];
  /** Called as the check advances: 0 before LibreOffice starts, then once per page read back. */
  onProgress?: (done: number, total: number) => void;
}

function estimated(input: VerifyInput, reason: string, started: number): VerifyResult {
  const slides: VerifiedSlide[] = input.slides.map((s) => ({ number: s.number, sourceIndex: s.sourceIndex, issues: checkPlannedSlide(s) }));
  return { mode: 'estimated', reason, slides, ms: performance.now() - started };
}

function reasonOf(err: unknown): string {
  if (err instanceof SofficeMissingError) return SOFFICE_MISSING_REASON;
  return err instanceof Error ? err.message : String(err);
}

export async function verifyRenderedDeck(input: VerifyInput, opts: VerifyOptions = {}): Promise<VerifyResult> {
  const started = performance.now();
  const timeoutMs = opts.timeoutMs ?? BASE_TIMEOUT_MS + PER_SLIDE_TIMEOUT_MS * input.slides.length;
  const total = input.slides.length;
  let pages;
  let convertMs;
  try {
    // Progress only where there is something to wait for: no LibreOffice, no "checking".
    if (sofficePath() !== null) opts.onProgress?.(0, total);
    // Every render is checked: LibreOffice is kept running between them (soffice-warm.ts).
    const pdf = await convertToPdfWarm(input.pptxPath, {
      timeoutMs,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.hiddenPaths ? { hiddenPaths: opts.hiddenPaths } : {}),
    });
    convertMs = performance.now() - started;
    const onPage = opts.onProgress ? (n: number) => opts.onProgress?.(Math.min(n, total), total) : undefined;
    pages = await readPdfWords(pdf, input.size, opts.signal, onPage);
  } catch (err) {
    if (err instanceof FolioError && err.code === 'cancelled') throw err;
    return estimated(input, reasonOf(err), started);
  }
  const result = checkPages(input, pages, started);
  return result.mode === 'rendered' ? { ...result, convertMs } : result;
}

/** The check of a deck LibreOffice has already converted (`pdf`): tests convert several decks in one run. */
export async function verifyRenderedPdf(input: VerifyInput, pdf: Uint8Array): Promise<VerifyResult> {
  const started = performance.now();
  return checkPages(input, await readPdfWords(pdf, input.size), started);
}

function checkPages(input: VerifyInput, pages: Awaited<ReturnType<typeof readPdfWords>>, started: number): VerifyResult {
  const last = Math.max(0, ...input.slides.map((s) => s.number));
  if (pages.length < last) {
    return estimated(input, `LibreOffice made ${pages.length} pages of a deck with ${last} slides, so pages and slides cannot be paired`, started);
  }
  // Where the template's own text is, in inches, and its words: those words there are the master's.
  const fixedText = (input.fixedText ?? []).map((f) => ({
    keys: new Set(tokenize(f.text).map((t) => t.key)),
    rect: { x: f.x * input.size.w, y: f.y * input.size.h, w: f.w * input.size.w, h: f.h * input.size.h },
  }));
  const slides: VerifiedSlide[] = input.slides.map((s) => ({
    number: s.number,
    sourceIndex: s.sourceIndex,
    issues: checkRenderedSlide(s, pages[s.number - 1]?.words ?? [], {
      size: input.size,
      footerTop: s.footerBand === false ? input.size.h : input.footerTop,
      fixedText,
    }, pages[s.number - 1]?.doubleGaps),
  }));
  return { mode: 'rendered', slides, ms: performance.now() - started };
}

/** How the quality report says where its findings come from. */
export function verificationNote(result: Pick<VerifyResult, 'mode' | 'reason'>): string {
  return result.mode === 'rendered' ? 'verified against the rendered slides' : `estimated (${result.reason ?? NOT_RENDERED})`;
}

/**
 * The report with the check's findings added to the spec slides they came from (a finding for a
 * spec slide the report does not list is dropped: the plan and the report disagree), and marked
 * with how it was checked.
 */
export function mergeVerification(report: QualityReport, result: VerifyResult): QualityReport {
  const slides = report.slides.map((s) => ({ ...s, issues: [...s.issues] }));
  for (const verified of result.slides) {
    slides.find((s) => s.index === verified.sourceIndex)?.issues.push(...verified.issues);
  }
  for (const s of slides) s.issues = mergeRepeatedIssues(s.issues);
  const checked: ReportCheck = result.mode === 'rendered' ? { mode: 'rendered' } : { mode: 'estimated', reason: result.reason ?? NOT_RENDERED };
  return { slides, summary: { ...report.summary, issues: slides.reduce((n, s) => n + s.issues.length, 0) }, checked };
}
