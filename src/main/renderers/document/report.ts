// What rendering found worth telling the author: issues to fix, the document's size, and its pages.

export type DocumentIssueKind =
  | 'missing_section'
  | 'missing_image'
  | 'empty_section'
  | 'unsupported_markdown'
  | 'long_paragraph'
  // Conversion-level checks of NSFC conventions: each says where in the section file it is.
  | 'undefined_footnote'
  | 'empty_list_item'
  | 'image_upscaled'
  | 'unknown_reference'
  | 'duplicate_id'
  // Citations `[@key]` against the folder's bibliography (bibliography.ts).
  | 'unknown_citation'
  | 'uncited_reference'
  | 'incomplete_reference'
  // A table without a caption paragraph: numbered with a placeholder caption.
  | 'uncaptioned_table'
  // A table whose columns cannot each be as wide as their longest word.
  | 'table_too_wide'
  // 着重号 that LibreOffice's PDF and page previews leave out (Word and WPS draw them).
  | 'emphasis_dots_not_drawn'
  // Found against the fonts and the laid-out pages (glyph-coverage.ts, section-lengths.ts).
  | 'missing_glyph'
  | 'section_length';

/**
 * Where in a section file an issue is: the 1-based index of the top-level Markdown block (paragraph, heading,
 * list, table… in the order written), the line it starts on, and the first words of its text.
 */
export type IssueLocation = { paragraph: number; line?: number; excerpt: string };

export type DocumentIssue = {
  kind: DocumentIssueKind;
  /** The section file it came from. */
  section?: string;
  /** The heading it came under (as written, without its number). */
  heading?: string;
  location?: IssueLocation;
  /** missing_section: the section the template expects, as its heading reads (for a reader in any UI language). */
  expected?: string;
  /**
   * The facts the message states (counts, keys, ids, limits), so a UI can say the same in the person's
   * language; `message` is English, for the model and the logs. Which names each kind carries:
   * `IssueParams` below.
   */
  params?: IssueParams;
  message: string;
};

/** The named facts of an issue; each kind uses a few of them (see where each is reported). */
export type IssueParams = Partial<{
  /** unsupported_markdown: what was left out. */
  construct: 'html' | 'block' | 'image_inline' | 'image_remote' | 'image_path' | 'image_large' | 'image_format';
  image: string;
  heading: string;
  id: string;
  key: string;
  label: string;
  /** incomplete_reference: the CSL fields missing, comma-separated. */
  fields: string;
  /** uncited_reference: the keys never cited, comma-separated. */
  keys: string;
  /** missing_glyph: the characters no font has / that print blank, each written once. */
  chars: string;
  blank: string;
  /** unknown_citation: whether the folder has a bibliography at all. */
  bibliography: 'none' | 'present';
  /** section_length: the section (or run of sections) measured, and whether it is over or under. */
  name: string;
  direction: 'over' | 'under';
  count: number;
  item: number;
  units: number;
  limit: number;
  columns: number;
  pages: number;
  min: number;
  max: number;
  dpi: number;
  needed: number;
}>;

export type DocumentStats = {
  sections: number;
  words: number;
  cjk_chars: number;
  tables: number;
  images: number;
  footnotes: number;
};

/** One line of the table of contents as it was written, with the body page its heading is on (null: not found on the pages). */
export type ContentsEntry = { level: number; title: string; page: number | null };

/**
 * How many pages the document has. `rendered`: LibreOffice laid it out and the numbers are its
 * pages (front matter included in `total`; `body` is the 正文 alone, numbered from 1), and the contents
 * carry its page numbers. `estimated`: worked out from character counts, with the reason the pages
 * were not laid out.
 */
export type DocumentPages =
  | { mode: 'rendered'; total: number; body: number; contents: ContentsEntry[] }
  | { mode: 'estimated'; total: number; reason: string };

/** The citations as written: the style, each cited key's number, and the generated reference list (for the preview). */
export type DocumentCitations = {
  style: string;
  superscript: boolean;
  numbers: Record<string, number>;
  references: { key: string; number: number; text: string }[];
};

export type DocumentReport = { issues: DocumentIssue[]; stats: DocumentStats; pages?: DocumentPages; citations?: DocumentCitations };

export function emptyStats(): DocumentStats {
  return { sections: 0, words: 0, cjk_chars: 0, tables: 0, images: 0, footnotes: 0 };
}

/** `¶3 (line 12) "excerpt…"`: how a location reads in text reports. */
export function formatLocation(location: IssueLocation): string {
  return `¶${location.paragraph}${location.line === undefined ? '' : ` (line ${location.line})`} “${location.excerpt}”`;
}
