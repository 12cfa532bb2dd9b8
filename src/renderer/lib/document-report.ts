// The document engine's report arrives untyped in the contract (`report: unknown`); the preview
// shows the issues that have the documented shape and ignores anything else.

export interface DocumentIssue {
  kind: string;
  message: string;
  section?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function documentIssues(report: unknown): DocumentIssue[] {
  if (!isRecord(report) || !Array.isArray(report.issues)) return [];
  return report.issues.flatMap((issue: unknown) => {
    if (!isRecord(issue) || typeof issue.kind !== 'string' || typeof issue.message !== 'string') return [];
    return [{ kind: issue.kind, message: issue.message, ...(typeof issue.section === 'string' ? { section: issue.section } : {}) }];
  });
}
