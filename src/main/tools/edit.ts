// edit: replace one exact, unique snippet of a file. Uniqueness is what makes the edit safe to apply
// without line numbers, and what lets the approval card show the exact diff beforehand.
import { z } from 'zod';
import { FolioError } from '../../shared/errors';
import { readInside, writeInside } from '../workspace/task-paths';
import { ARTIFACT_OVERWRITE_MESSAGE } from './artifacts';
import { errnoCode, looksBinary } from './text';
import { ALL_AREAS, resolveToolPath, type Tool, type ToolContext, ToolError, ToolFileNotFoundError, ToolNotAllowedError, type ToolTraits } from './types';
import { gitWriteRisk } from './git-files';

const parameters = z.object({
  path: z.string().describe('File path relative to the task folder.'),
  old_str: z.string().min(1).describe('Exact text to replace; must occur exactly once in the file.'),
  new_str: z.string().describe('Replacement text.'),
});
type EditArgs = z.output<typeof parameters>;

interface PlannedEdit {
  root: string;
  rel: string;
  before: string;
  after: string;
  /** Character offset of the replaced text in `before`, and the lengths replaced/inserted. */
  index: number;
  oldLength: number;
  newLength: number;
}

// Artifacts are named as a write area so that editing one gets the specific refusal below.
const traits: ToolTraits = { kind: 'edit', runsCode: false, network: false, paths: { read: ALL_AREAS, write: ['work', 'artifact'] }, writesArtifacts: false, endsTurn: false };

async function planEdit(args: EditArgs, ctx: Pick<ToolContext, 'root' | 'taskRoot'>): Promise<PlannedEdit> {
  const { rel, root, area } = resolveToolPath(ctx, traits, args.path, 'write');
  if (area === 'artifact') throw new ToolNotAllowedError(`${rel} is an artifact: ${ARTIFACT_OVERWRITE_MESSAGE}.`, rel);
  let bytes: Buffer;
  try {
    bytes = await readInside(root, rel);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT') throw new ToolFileNotFoundError(rel, `File not found: ${rel}. Use write to create a new file.`);
    if (code === 'EISDIR') throw new ToolError(`${rel} is a directory; give a file path.`);
    throw err;
  }
  if (looksBinary(bytes)) throw new ToolError(`${rel} is a binary file; edit only changes text files.`);
  const before = bytes.toString('utf8');

  let oldStr = args.old_str;
  let newStr = args.new_str;
  // Models write LF; a CRLF file would otherwise never match a multi-line snippet.
  if (before.includes('\r\n') && oldStr.includes('\n') && !oldStr.includes('\r\n')) {
    oldStr = oldStr.replace(/\n/gu, '\r\n');
    newStr = newStr.replace(/\r?\n/gu, '\r\n');
  }
  if (oldStr === newStr) throw new ToolError('old_str and new_str are identical; nothing to change.');

  const occurrences = before.split(oldStr).length - 1;
  if (occurrences === 0) {
    throw new ToolError(
      `old_str not found in ${rel}. It must match the file exactly, including whitespace, indentation and line breaks; ` +
        'read the file and copy the text.',
    );
  }
  if (occurrences > 1) {
    throw new ToolError(`old_str occurs ${occurrences} times in ${rel}; include more context so it matches exactly once.`);
  }
  const index = before.indexOf(oldStr);
  const after = before.slice(0, index) + newStr + before.slice(index + oldStr.length);
  return { root, rel, before, after, index, oldLength: oldStr.length, newLength: newStr.length };
}

const CONTEXT_LINES = 3;

function lineNumberAt(text: string, index: number): number {
  let line = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n += 1;
  return n;
}

function displayLines(text: string): string[] {
  const lines = text.split('\n').map((line) => line.replace(/\r$/u, ''));
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** A unified diff of the single replaced region, with a few lines of context. */
export function unifiedDiff(edit: PlannedEdit): string {
  const beforeLines = displayLines(edit.before);
  const afterLines = displayLines(edit.after);
  const first = lineNumberAt(edit.before, edit.index);
  const lastOld = lineNumberAt(edit.before, edit.index + Math.max(edit.oldLength - 1, 0));
  const oldRegion = lastOld - first + 1;
  // Everything after the replaced text is unchanged, so the region grows by the newline delta.
  const newRegion =
    oldRegion +
    countNewlines(edit.after, edit.index, edit.index + edit.newLength) -
    countNewlines(edit.before, edit.index, edit.index + edit.oldLength);
  const start = Math.max(0, first - CONTEXT_LINES);
  const trailing = Math.max(0, Math.min(CONTEXT_LINES, beforeLines.length - (lastOld + 1)));

  const body: string[] = [];
  for (let i = start; i < first; i += 1) body.push(` ${beforeLines[i] ?? ''}`);
  for (let i = first; i <= lastOld; i += 1) body.push(`-${beforeLines[i] ?? ''}`);
  for (let i = first; i < first + newRegion; i += 1) body.push(`+${afterLines[i] ?? ''}`);
  for (let i = lastOld + 1; i < lastOld + 1 + trailing; i += 1) body.push(` ${beforeLines[i] ?? ''}`);
  const context = first - start + trailing;
  return [
    `--- a/${edit.rel}`,
    `+++ b/${edit.rel}`,
    `@@ -${start + 1},${oldRegion + context} +${start + 1},${newRegion + context} @@`,
    ...body,
  ].join('\n');
}

export const editTool: Tool<typeof parameters> = {
  name: 'edit',
  description:
    'Replace text in a file: old_str must occur exactly once (include surrounding lines to make it unique); ' +
    'it is replaced by new_str. Read the file first and copy old_str exactly, including indentation.',
  parameters,
  traits,
  async assess(args, ctx: Omit<ToolContext, 'signal' | 'progress'>) {
    try {
      const plan = await planEdit(args, ctx);
      const detail = unifiedDiff(plan);
      return gitWriteRisk(plan.rel, detail) ?? { risk: 'standard', detail };
    } catch (err) {
      // The call will fail the same way when executed; the card still says why.
      if (err instanceof ToolError || err instanceof FolioError) return { risk: 'standard', detail: `edit ${args.path}: ${err.message}` };
      throw err;
    }
  },
  async execute(args, ctx) {
    const edit = await planEdit(args, ctx);
    await writeInside(edit.root, edit.rel, edit.after);
    const first = lineNumberAt(edit.after, edit.index) + 1;
    const last = lineNumberAt(edit.after, edit.index + Math.max(edit.newLength - 1, 0)) + 1;
    const where = first === last ? `line ${first}` : `lines ${first}-${last}`;
    return { content: `Edited ${edit.rel}: replaced 1 occurrence (now ${where}).`, touched: [edit.rel] };
  },
};
