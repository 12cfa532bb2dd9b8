// Collects what the renderer had to do (shrink, split, cut) and what a person should look at
// (dense slides, missing images, low contrast), per spec slide.
import { countWords } from '../../../shared/specs/deck';
import { contrastRatio, MIN_TEXT_CONTRAST } from '../../../shared/specs/themes';
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

  /** Records text drawn in `color` on `background`; flags it once if below WCAG AA. */
  checkContrast(what: string, color: string, background: string): void {
    const key = `${color}/${background}`;
    if (this.contrastSeen.has(key)) return;
    this.contrastSeen.add(key);
    const ratio = contrastRatio(color, background);
    if (ratio < MIN_TEXT_CONTRAST) {
      this.add('low_contrast', `${what}: #${color} on #${background} has contrast ${ratio.toFixed(2)}:1 (WCAG AA needs ${MIN_TEXT_CONTRAST}:1)`);
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
