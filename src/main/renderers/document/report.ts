// What rendering found worth telling the author: issues to fix and the document's size.

export type DocumentIssueKind = 'missing_section' | 'missing_image' | 'empty_section' | 'unsupported_markdown' | 'long_paragraph';

export type DocumentIssue = { kind: DocumentIssueKind; section?: string; message: string };

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
