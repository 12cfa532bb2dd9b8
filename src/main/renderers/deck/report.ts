// Collects what the renderer had to do (shrink, split, cut) and what a person should look at
// (dense slides, missing images, low contrast), per spec slide.
import { countWords } from '../../../shared/specs/deck';
import { contrastRatio, MIN_LARGE_TEXT_CONTRAST, MIN_TEXT_CONTRAST } from '../../../shared/specs/themes';
import { type QualityIssue, type QualityIssueKind, type QualityReport, type SlideQuality } from '../../../shared/specs/deck';

/** Above this many words (Latin words + CJK characters / 2) a slide is a wall of text. */
export const MAX_WORDS_PER_SLIDE = 70;
/** Content slides with fewer words than this look unfinished. */
export const NEAR_EMPTY_WORDS = 4;

export class ReportBuilder {
  private readonly slides: SlideQuality[] = [];

  begin(index: number): SlideReport {
    const entry: SlideQuality = { index, output_slides: [], issues: [] };
    this.slides.push(entry);
    return new SlideReport(entry);
  }

  build(slidesOut: number): QualityReport {
    for (const s of this.slides) s.issues = mergeRepeatedIssues(s.issues);
    return {
      slides: this.slides,
      summary: {
        slides_in: this.slides.length,
        slides_out: slidesOut,
        issues: this.slides.reduce((n, s) => n + s.issues.length, 0),
      },
    };
  }
}

export class SlideReport {
  private readonly contrastSeen = new Set<string>();
  constructor(private readonly entry: SlideQuality) {}

  addOutputSlide(number: number): void {
    this.entry.output_slides.push(number);
  }

  add(kind: QualityIssueKind, message: string): void {
    if (this.entry.issues.some((i) => i.kind === kind && i.message === message)) return;
    const issue: QualityIssue = { kind, message };
    this.entry.issues.push(issue);
  }

  /**
   * Records text drawn in `color` on `background`; flags it once if below WCAG AA: 4.5:1, or 3:1 for
   * large text (at least 18 pt, or 14 pt bold), given its smallest size.
   */
  checkContrast(what: string, color: string, background: string, text?: { sizePt: number; bold?: boolean }): void {
    const large = text !== undefined && isLargeText(text.sizePt, text.bold ?? false);
    const key = `${color}/${background}/${large ? 'L' : 'n'}`;
    if (this.contrastSeen.has(key)) return;
    this.contrastSeen.add(key);
    const ratio = contrastRatio(color, background);
    const needed = large ? MIN_LARGE_TEXT_CONTRAST : MIN_TEXT_CONTRAST;
    if (ratio < needed) {
      this.add('low_contrast', `${what}: #${color} on #${background} has contrast ${ratio.toFixed(2)}:1 (WCAG AA needs ${needed}:1${large ? ' for large text' : ''})`);
    }
  }

  checkWords(texts: readonly string[]): void {
    const words = texts.reduce((n, t) => n + countWords(t), 0);
    if (words > MAX_WORDS_PER_SLIDE) {
      this.add('too_many_words', `${words} words (more than ${MAX_WORDS_PER_SLIDE}); consider fewer, shorter points or moving detail to the notes`);
    }
  }

  /** Flags content slides with nothing or next to nothing in their body. */
  checkEmptiness(bodyTexts: readonly string[], hasVisual: boolean): void {
    if (hasVisual) return;
    const words = bodyTexts.reduce((n, t) => n + countWords(t), 0);
    if (words === 0) this.add('empty', 'the slide has a title but no content');
    else if (words < NEAR_EMPTY_WORDS) this.add('near_empty', `only ${words} word(s) of content`);
  }
}

/** WCAG 2's large text: 18 pt and up, or 14 pt and up in bold. */
export function isLargeText(sizePt: number, bold: boolean): boolean {
  return sizePt >= 18 || (bold && sizePt >= 14);
}

/** The message fitText and fitBullets write when they shrink a text (merged per slide below). */
export function shrunkMessage(what: string, fromPt: number, toPt: number): string {
  return `${what} shrunk from ${fromPt} to ${toPt} pt to fit`;
}
const SHRUNK = /^(.*) shrunk from (\d+(?:\.\d+)?) to (\d+(?:\.\d+)?) pt to fit$/s;

/**
 * One issue per kind on a slide: five timeline events shrunk by a point read as one finding
 * ("event 1 title, event 2 title, … shrunk from 24 to 23 pt to fit"), not five. Other kinds keep
 * each message, joined in order.
 */
export function mergeRepeatedIssues(issues: readonly QualityIssue[]): QualityIssue[] {
  const byKind = new Map<QualityIssueKind, string[]>();
  for (const issue of issues) {
    const list = byKind.get(issue.kind) ?? [];
    if (!list.includes(issue.message)) list.push(issue.message);
    byKind.set(issue.kind, list);
  }
  const out: QualityIssue[] = [];
  for (const [kind, messages] of byKind) {
    if (messages.length === 1) {
      out.push({ kind, message: messages[0] ?? '' });
      continue;
    }
    if (kind === 'shrunk' && messages.every((m) => SHRUNK.test(m))) {
      const groups = new Map<string, string[]>();
      for (const m of messages) {
        const [, what = '', from = '', to = ''] = SHRUNK.exec(m) ?? [];
        const key = `${from} to ${to}`;
        groups.set(key, [...(groups.get(key) ?? []), what]);
      }
      const parts = [...groups].map(([range, whats]) => `${whats.join(', ')} shrunk from ${range} pt`);
      out.push({ kind, message: `${parts.join('; ')} to fit` });
      continue;
    }
    out.push({ kind, message: messages.join('; ') });
  }
  return out;
}
