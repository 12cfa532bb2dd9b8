// The document engine's report arrives untyped in the contract (`report: unknown`); the preview
// shows the issues that have the documented shape and ignores anything else.

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
  location?: DocumentIssueLocation;
}

function locationOf(value: unknown): DocumentIssueLocation | undefined {
  if (!isRecord(value) || typeof value.paragraph !== 'number' || typeof value.excerpt !== 'string') return undefined;
  return { paragraph: value.paragraph, excerpt: value.excerpt, ...(typeof value.line === 'number' ? { line: value.line } : {}) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function documentIssues(report: unknown): DocumentIssue[] {
  if (!isRecord(report) || !Array.isArray(report.issues)) return [];
  return report.issues.flatMap((issue: unknown) => {
    if (!isRecord(issue) || typeof issue.kind !== 'string' || typeof issue.message !== 'string') return [];
    const location = locationOf(issue.location);
    return [
      {
        kind: issue.kind,
        message: issue.message,
        ...(typeof issue.section === 'string' ? { section: issue.section } : {}),
        ...(location ? { location } : {}),
      },
    ];
  });
}
