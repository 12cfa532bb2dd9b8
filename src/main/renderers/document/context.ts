// The state one render carries across sections: what has been counted, numbered and reported.
import { type Paragraph } from 'docx';
import { type DocumentTemplate } from '../../../shared/specs/document';
import { type PageGeometry } from './geometry';
import { type DocumentIssue, type DocumentIssueKind, type DocumentStats, emptyStats } from './report';
import { type BlockMeasure } from './page-estimate';

export type TocEntry = { title: string; level: number; href: string };

export class RenderContext {
  readonly issues: DocumentIssue[] = [];
  readonly stats: DocumentStats = emptyStats();
  readonly footnotes: Record<string, { children: Paragraph[] }> = {};
  readonly toc: TocEntry[] = [];
  readonly headings: string[] = [];
  readonly measures: BlockMeasure[] = [];
  /** The section file being converted, for issues. */
  section: string | undefined;
  private nextFootnote = 1;
  private nextListInstance = 1;
  private nextBookmark = 1;
  private figures = 0;
  private headingCounters: number[] = [];

  constructor(
    readonly folder: string,
    readonly template: DocumentTemplate,
    readonly language: string,
    readonly geometry: PageGeometry,
  ) {}

  get isChinese(): boolean {
    return this.language.toLowerCase().startsWith('zh');
  }

  report(kind: DocumentIssueKind, message: string): void {
    this.issues.push({ kind, ...(this.section === undefined ? {} : { section: this.section }), message });
  }

  footnoteId(): number {
    this.stats.footnotes += 1;
    return this.nextFootnote++;
  }

  listInstance(): number {
    return this.nextListInstance++;
  }

  bookmark(): string {
    return `_Toc_folio_${this.nextBookmark++}`;
  }

  figureNumber(): number {
    return ++this.figures;
  }

  /** Advances the heading counters for a numbered heading at `level` (0-based) and returns them. */
  countHeading(level: number): number[] {
    const counters = this.headingCounters.slice(0, level + 1);
    while (counters.length < level + 1) counters.push(counters.length === level ? 0 : 1);
    counters[level] = (counters[level] ?? 0) + 1;
    this.headingCounters = counters;
    return counters;
  }
}
