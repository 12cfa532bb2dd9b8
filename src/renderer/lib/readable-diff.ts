// A change to a file as a person reads it: the lines before and after, with their line numbers and
// a few unchanged lines around them, never the unified-diff headers or the call's escaped JSON.
// Built from the diff main computed for the approval when there is one, else from the call's own
// old/new text (an approval persisted without its diff, a tool that only names the snippets).

export type DiffRowKind = 'add' | 'remove' | 'context' | 'gap';

export interface DiffRow {
  kind: DiffRowKind;
  text: string;
  /** The line's number in the file before (remove, context) and after (add, context). */
  oldLine: number | null;
  newLine: number | null;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/u;

/** The rows of a unified diff; null when the text is not one (e.g. the reason an edit cannot apply). */
export function rowsOfUnifiedDiff(diff: string): DiffRow[] | null {
  const rows: DiffRow[] = [];
  let oldLine = 0;
  let newLine = 0;
  let hunks = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('--- ') || line.startsWith('+++ ')) continue;
    const hunk = HUNK.exec(line);
    if (hunk) {
      if (hunks > 0) rows.push({ kind: 'gap', text: '', oldLine: null, newLine: null });
      hunks += 1;
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      continue;
    }
    if (hunks === 0) return null;
    if (line.startsWith('+')) rows.push({ kind: 'add', text: line.slice(1), oldLine: null, newLine: newLine++ });
    else if (line.startsWith('-')) rows.push({ kind: 'remove', text: line.slice(1), oldLine: oldLine++, newLine: null });
    else if (line.startsWith(' ') || line === '') rows.push({ kind: 'context', text: line.slice(1), oldLine: oldLine++, newLine: newLine++ });
    else if (line.startsWith('\\')) continue; // "\ No newline at end of file"
    else return null;
  }
  return hunks > 0 ? rows : null;
}

function linesOf(text: string): string[] {
  const lines = text.replace(/\r\n/gu, '\n').split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

/** The rows replacing `before` by `after` when where in the file is not known (no line numbers). */
export function rowsOfReplacement(before: string, after: string): DiffRow[] {
  return [
    ...(before === '' ? [] : linesOf(before)).map((text): DiffRow => ({ kind: 'remove', text, oldLine: null, newLine: null })),
    ...(after === '' ? [] : linesOf(after)).map((text): DiffRow => ({ kind: 'add', text, oldLine: null, newLine: null })),
  ];
}
