// The state one render carries across sections: what has been counted, numbered and reported.
import { type Paragraph } from 'docx';
import { type Nodes } from 'mdast';
import { type DocumentTemplate, type OutlineHeadingRef } from '../../../shared/specs/document';
import { captionLabel, type DocumentCaptions, referenceKind } from '../../../shared/specs/document-captions';
import { excerptText } from './mdast-text';
import { type PageGeometry } from './geometry';
import { type DocumentIssue, type DocumentIssueKind, type DocumentStats, type IssueLocation, emptyStats } from './report';
import { type BlockMeasure } from './page-estimate';
import { type CitationLook } from '../../../shared/specs/document-citations';
import { type FormattedReference } from './bibliography';
import { createTextMeasurer } from '../typesetting/fonts';
import { type TextMeasurer } from '../typesetting/text-measurer';

/** The citations of one render: each cited key's number and the list written under the references heading. */
export type CitationState = {
  look: CitationLook;
  numbers: Map<string, number>;
  references: FormattedReference[];
  /** Whether the document has a bibliography at all (an unknown key's message says which is missing). */
  hasBibliography: boolean;
  /** The list has been written (under the first references heading). */
  written: boolean;
};

export type TocEntry = { title: string; level: number; href: string };

export class RenderContext {
  readonly issues: DocumentIssue[] = [];
  readonly stats: DocumentStats = emptyStats();
  readonly footnotes: Record<string, { children: Paragraph[] }> = {};
  readonly toc: TocEntry[] = [];
  readonly headings: OutlineHeadingRef[] = [];
  readonly measures: BlockMeasure[] = [];
  /** The section file being converted, for issues. */
  section: string | undefined;
  /** The top-level block being converted (1-based index and node), for issue locations. */
  block: { index: number; node: Nodes } | undefined;
  /** Bookmark names of the captions that have an id, by id: what cross-references point at. */
  readonly captionBookmarks = new Map<string, string>();
  citations: CitationState | undefined;
  /** Every contents entry has its page number (the LibreOffice pass): the field is not written dirty. */
  contentsFilled = false;
  private textMeasurer: TextMeasurer | undefined;
  private nextFootnote = 1;
  private nextListInstance = 1;
  private nextBookmark = 1;
  private headingCounters: number[] = [];

  constructor(
    readonly folder: string,
    readonly template: DocumentTemplate,
    readonly language: string,
    readonly geometry: PageGeometry,
    readonly captions: DocumentCaptions,
  ) {}

  /** Font metrics for table column widths, read at the first table. */
  get measurer(): TextMeasurer {
    this.textMeasurer ??= createTextMeasurer();
    return this.textMeasurer;
  }

  get isChinese(): boolean {
    return this.language.toLowerCase().startsWith('zh');
  }

  /** Records an issue in the current section, located at `node` (or the current top-level block). */
  report(kind: DocumentIssueKind, message: string, node?: Nodes, extra: Pick<DocumentIssue, 'expected' | 'params'> = {}): void {
    const location = this.locate(node);
    this.issues.push({ kind, ...(this.section === undefined ? {} : { section: this.section }), ...(location ? { location } : {}), ...extra, message });
  }

  private locate(node: Nodes | undefined): IssueLocation | undefined {
    if (!this.block) return undefined;
    const at = node ?? this.block.node;
    const line = at.position?.start.line ?? this.block.node.position?.start.line;
    return { paragraph: this.block.index, ...(line === undefined ? {} : { line }), excerpt: excerpt(excerptText(at) || excerptText(this.block.node)) };
  }

  /** What a cross-reference to `id` prints as: its caption's label (`表 1`), or `表 ??` when no caption has the id. */
  referenceLabel(id: string): string {
    const target = this.captions.ids.get(id);
    return captionLabel(target?.kind ?? referenceKind(id), target?.number ?? '??', this.isChinese);
  }

  /** What joins the labels of a cross-reference to several captions (`[@tbl:a; @tbl:b]`). */
  get referenceSeparator(): string {
    return this.isChinese ? '、' : ', ';
  }

  /** The bookmark around the caption label `表 1` that `[@tbl:id]` refers to. */
  captionBookmark(id: string): string {
    let name = this.captionBookmarks.get(id);
    if (!name) {
      // Word bookmark names: at most 40 letters, digits and underscores; a leading `_` hides them, as Word's own `_Ref` ones.
      name = `_Ref_folio_${this.captionBookmarks.size + 1}`;
      this.captionBookmarks.set(id, name);
    }
    return name;
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


  /** Advances the heading counters for a numbered heading at `level` (0-based) and returns them. */
  countHeading(level: number): number[] {
    const counters = this.headingCounters.slice(0, level + 1);
    while (counters.length < level + 1) counters.push(counters.length === level ? 0 : 1);
    counters[level] = (counters[level] ?? 0) + 1;
    this.headingCounters = counters;
    return counters;
  }
}

function excerpt(text: string, max = 24): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
