// What rendering found worth telling the author: issues to fix and the document's size.

export type DocumentIssueKind =
  | 'missing_section'
  | 'missing_image'
  | 'empty_section'
  | 'unsupported_markdown'
  | 'long_paragraph'
  // Conversion-level checks of NSFC conventions (doc-nsfc): each says where in the section file it is.
  | 'undefined_footnote'
  | 'empty_list_item'
  | 'image_upscaled'
  | 'unknown_reference'
  | 'duplicate_id';

/**
 * Where in a section file an issue is: the 1-based index of the top-level Markdown block (paragraph, heading,
 * list, table… in the order written), the line it starts on, and the first words of its text.
 */
export type IssueLocation = { paragraph: number; line?: number; excerpt: string };

export type DocumentIssue = { kind: DocumentIssueKind; section?: string; location?: IssueLocation; message: string };

export type DocumentStats = {
  sections: number;
  words: number;
  cjk_chars: number;
  tables: number;
  images: number;
  footnotes: number;
};

export type DocumentReport = { issues: DocumentIssue[]; stats: DocumentStats };

export function emptyStats(): DocumentStats {
  return { sections: 0, words: 0, cjk_chars: 0, tables: 0, images: 0, footnotes: 0 };
}

/** `¶3 (line 12) "excerpt…"`: how a location reads in text reports. */
export function formatLocation(location: IssueLocation): string {
  return `¶${location.paragraph}${location.line === undefined ? '' : ` (line ${location.line})`} “${location.excerpt}”`;
}
