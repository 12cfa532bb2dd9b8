// The document engine's report arrives untyped in the contract (`report: unknown`); the preview
// shows the issues that have the documented shape and ignores anything else.
import type { CitationStyleName } from '../../shared/specs/document';
import { type CitationLook, citationLooks } from '../../shared/specs/document-citations';

export interface DocumentIssueLocation {
  /** 1-based index of the top-level Markdown block in the section file. */
  paragraph: number;
  line?: number;
  excerpt: string;
}

export interface DocumentIssue {
  kind: string;
  message: string;
  section?: string;
  heading?: string;
  location?: DocumentIssueLocation;
  /** missing_section: the section the template expects, as its heading reads. */
  expected?: string;
  /** The facts the message states (counts, keys, limits), for a sentence in the person's language. */
  params?: Record<string, string | number>;
}

function locationOf(value: unknown): DocumentIssueLocation | undefined {
  if (!isRecord(value) || typeof value.paragraph !== 'number' || typeof value.excerpt !== 'string') return undefined;
  return { paragraph: value.paragraph, excerpt: value.excerpt, ...(typeof value.line === 'number' ? { line: value.line } : {}) };
}

function paramsOf(value: unknown): Record<string, string | number> | undefined {
  if (!isRecord(value)) return undefined;
  const entries = Object.entries(value).filter((entry): entry is [string, string | number] => typeof entry[1] === 'string' || (typeof entry[1] === 'number' && Number.isFinite(entry[1])));
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function documentIssues(report: unknown): DocumentIssue[] {
  if (!isRecord(report) || !Array.isArray(report.issues)) return [];
  return report.issues.flatMap((issue: unknown) => {
    if (!isRecord(issue) || typeof issue.kind !== 'string' || typeof issue.message !== 'string') return [];
    const location = locationOf(issue.location);
    const params = paramsOf(issue.params);
    return [
      {
        kind: issue.kind,
        message: issue.message,
        ...(typeof issue.section === 'string' ? { section: issue.section } : {}),
        ...(location ? { location } : {}),
        ...(typeof issue.heading === 'string' ? { heading: issue.heading } : {}),
        ...(typeof issue.expected === 'string' ? { expected: issue.expected } : {}),
        ...(params ? { params } : {}),
      },
    ];
  });
}

export interface ContentsLine {
  level: number;
  title: string;
  page: number | null;
}

/**
 * The document's pages as the report gives them: laid out by LibreOffice (page count, body pages and
 * the contents with their page numbers) or estimated (the count and why); null when the report has none.
 */
export type DocumentPagesView =
  | { mode: 'rendered'; total: number; body: number; contents: ContentsLine[] }
  | { mode: 'estimated'; total: number; reason: string };

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

export function documentPages(report: unknown): DocumentPagesView | null {
  if (!isRecord(report) || !isRecord(report.pages)) return null;
  const pages = report.pages;
  if (!isCount(pages.total)) return null;
  if (pages.mode === 'estimated') return { mode: 'estimated', total: pages.total, reason: typeof pages.reason === 'string' ? pages.reason : '' };
  if (pages.mode !== 'rendered' || !isCount(pages.body) || !Array.isArray(pages.contents)) return null;
  const contents = pages.contents.flatMap((line: unknown): ContentsLine[] => {
    if (!isRecord(line) || typeof line.title !== 'string' || !isCount(line.level)) return [];
    return [{ level: line.level, title: line.title, page: isCount(line.page) ? line.page : null }];
  });
  return { mode: 'rendered', total: pages.total, body: pages.body, contents };
}

export interface CitationsView {
  /** How the numbers are written (GB/T 7714: superscript `[1,3-5]`). */
  look: CitationLook;
  /** Each cited key's number, as the .docx has it. */
  numbers: Map<string, number>;
  /** The generated list, in citation order. */
  references: { key: string; number: number; text: string }[];
}

/** The citations as the engine wrote them; null when the report has none (no bibliography, or an older render). */
export function documentCitations(report: unknown): CitationsView | null {
  if (!isRecord(report) || !isRecord(report.citations)) return null;
  const c = report.citations;
  if (!isRecord(c.numbers) || !Array.isArray(c.references)) return null;
  const numbers = new Map<string, number>();
  for (const [key, value] of Object.entries(c.numbers)) if (isCount(value)) numbers.set(key, value);
  const references = c.references.flatMap((r: unknown) =>
    isRecord(r) && typeof r.key === 'string' && isCount(r.number) && typeof r.text === 'string' ? [{ key: r.key, number: r.number, text: r.text }] : [],
  );
  const style = typeof c.style === 'string' && c.style in citationLooks ? (c.style as CitationStyleName) : undefined;
  const look = style ? citationLooks[style] : { ...citationLooks.vancouver, superscript: c.superscript === true };
  return { look, numbers, references };
}
