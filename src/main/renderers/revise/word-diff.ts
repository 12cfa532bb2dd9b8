// What an edit really changes, as a reviewer would mark it: whole words in Latin text, single
// characters in Chinese, with the unchanged words between left alone.

export interface Hunk {
  /** Offsets in the found text. */
  from: number;
  to: number;
  insert: string;
}

const TOKEN = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{N}_]+|\s+|[^]/gu;
/** Beyond this many token pairs the edit is one replacement (an LCS table would cost too much). */
const MAX_CELLS = 4_000_000;

function tokens(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

export function wordDiff(find: string, replace: string): Hunk[] {
  const a = tokens(find);
  const b = tokens(replace);
  if (a.length * b.length > MAX_CELLS) return [{ from: 0, to: find.length, insert: replace }];
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  type Op = { kind: 'same' | 'del' | 'ins'; text: string };
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: 'same', text: a[i] ?? '' });
      i++;
      j++;
    } else if (j < b.length && (i >= a.length || (lcs[i * width + j + 1] ?? 0) >= (lcs[(i + 1) * width + j] ?? 0))) {
      ops.push({ kind: 'ins', text: b[j] ?? '' });
      j++;
    } else {
      ops.push({ kind: 'del', text: a[i] ?? '' });
      i++;
    }
  }
  const hunks: Hunk[] = [];
  let at = 0;
  let open: Hunk | null = null;
  let gap: { text: string; hunk: Hunk } | null = null;
  for (const op of ops) {
    if (op.kind === 'same') {
      // One space between two changes is part of one change ("the cat" → "a dog"), as Word marks it.
      if (open && gap === null && /^\s$/u.test(op.text)) gap = { text: op.text, hunk: open };
      else {
        open = null;
        gap = null;
      }
      at += op.text.length;
      continue;
    }
    if (!open && gap) {
      open = gap.hunk;
      open.to = at;
      open.insert += gap.text;
    } else if (open && gap) {
      open.to = at;
      open.insert += gap.text;
    }
    gap = null;
    if (!open) {
      open = { from: at, to: at, insert: '' };
      hunks.push(open);
    }
    if (op.kind === 'del') {
      at += op.text.length;
      open.to = at;
    } else open.insert += op.text;
  }
  return hunks;
}
