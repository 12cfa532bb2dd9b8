// revise_document: the person's own .docx comes back as a copy in artifacts/ in which each edit is a
// Word tracked change by "Folio" with its reason as a comment; what could not be placed is reported
// per edit (not found, ambiguous, overlapping, locked), never guessed.
import { basename, extname } from 'node:path';
import { z } from 'zod';
import { FolioError } from '../../shared/errors';
import { writeArtifactAtomic } from '../artifacts/write-artifact';
import { writePreviewSidecar } from '../renderers/artifact-preview';
import type { EditOutcome } from '../renderers/revise';
import { readInside, toRelative } from '../workspace/task-paths';
import { ARTIFACTS_DIR } from './artifacts';
import { ALL_AREAS, resolveToolPath, type Tool, ToolError, type ToolTraits } from './types';

/** A person's draft with its pictures; bigger is not a proposal. */
const MAX_DOCX_BYTES = 64 * 1024 * 1024;
const MAX_EDITS = 200;

const parameters = z.object({
  path: z.string().describe('The .docx to revise, relative to the task folder, e.g. "source/申请书草稿.docx". It is not changed.'),
  edits: z
    .array(
      z.object({
        find: z
          .string()
          .min(1)
          .describe('Text exactly as the document shows it, long enough to occur once (a paragraph break is "\\n": an edit may join paragraphs).'),
        replace: z.string().describe('The new text ("" deletes). Only the words or characters that differ are marked.'),
        reason: z.string().min(1).describe('Why, in the document\'s language: it becomes the Word comment on the change.'),
      }),
    )
    .min(1)
    .max(MAX_EDITS),
  output: z.string().optional().describe('File name of the revised copy in artifacts/ (default: "<name>（修订）.docx" or "<name>-revised.docx").'),
});

const traits: ToolTraits = { kind: 'edit', runsCode: false, network: false, paths: { read: ALL_AREAS, write: ['artifact'] }, writesArtifacts: true, endsTurn: false };

function outputName(input: string, chinese: boolean, output: string | undefined): string {
  if (output !== undefined) {
    if (output !== basename(output) || output.includes('\\')) throw new ToolError(`output: a file name without folders (got "${output}")`);
    if (extname(output).toLowerCase() !== '.docx') throw new ToolError(`output: must end with .docx (got "${output}")`);
    return output;
  }
  const stem = basename(input, extname(input));
  return chinese ? `${stem}（修订）.docx` : `${stem}-revised.docx`;
}

export function formatOutcomes(outcomes: readonly EditOutcome[]): string {
  return outcomes.map((o) => `- edit ${o.edit}: ${o.status}${o.status === 'applied' && o.places?.[0] ? ` (${o.places[0].part} ¶${o.places[0].paragraph})` : ''} — ${o.message}`).join('\n');
}

export const reviseDocumentTool: Tool<typeof parameters> = {
  name: 'revise_document',
  description:
    "Revise the person's own Word document (.docx) with tracked changes: each edit {find, replace, reason} becomes a real Word revision " +
    '(deletion and insertion by "Folio", dated) with the reason as a Word comment, so the person accepts or rejects each in Word or WPS. ' +
    'Writes a copy into artifacts/ ("<name>（修订）.docx"); the original is not changed, and everything else in the file (formatting, ' +
    "other reviewers' changes and comments) is kept. `find` is the visible text (body, tables, footnotes, headers, footers), exactly as " +
    'shown, and must occur exactly once; an edit may span paragraphs ("\\n" between them). Each edit is reported applied, not_found, ' +
    'ambiguous (with the paragraphs it occurs in: add context), overlaps (merge with the other edit), locked (inside a field, another ' +
    "reviewer's tracked change, or at a picture or note reference: edit around it) or invalid. Use it when the person asks to revise, " +
    'polish or correct their own .docx rather than to write a new document.',
  parameters,
  traits,
  assess(args) {
    const list = args.edits
      .slice(0, 20)
      .map((e, i) => `${i + 1}. “${e.find}” → “${e.replace}” (${e.reason})`)
      .join('\n');
    const more = args.edits.length > 20 ? `\n… and ${args.edits.length - 20} more` : '';
    return { risk: 'standard', detail: `Write a copy of ${args.path} into ${ARTIFACTS_DIR}/ with ${args.edits.length} tracked change(s); the original is not changed.\n${list}${more}` };
  },
  async execute(args, ctx) {
    if (ctx.signal.aborted) throw new ToolError('Cancelled before revising.');
    if (extname(args.path).toLowerCase() !== '.docx') throw new ToolError(`${args.path} is not a .docx file: only Word documents can be revised with tracked changes.`);
    const input = resolveToolPath(ctx, traits, args.path, 'read');
    let bytes: Buffer;
    try {
      bytes = await readInside(input.root, input.rel, { maxBytes: MAX_DOCX_BYTES });
    } catch (err) {
      if (err instanceof FolioError) throw new ToolError(`${args.path}: ${err.message}`);
      throw new ToolError(`${args.path}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'}).`);
    }
    const { reviseDocx } = await import('../renderers/revise');
    let result;
    try {
      result = await reviseDocx(bytes, args.edits);
    } catch (err) {
      if (err instanceof FolioError) throw new ToolError(`${args.path}: ${err.message}`);
      throw err;
    }
    const report = formatOutcomes(result.outcomes);
    if (!result.bytes) {
      return { content: `No edit could be applied, so no file was written.\n${report}`, isError: true };
    }
    const out = resolveToolPath(ctx, traits, ARTIFACTS_DIR, 'write');
    const written = writeArtifactAtomic(out.abs, outputName(args.path, result.chinese, args.output), result.bytes);
    const rel = toRelative(out.root, written);
    // The preview marks the insertions and deletions as Word will show them.
    const { revisionPreview } = await import('../renderers/revise/preview');
    writePreviewSidecar(written, { kind: 'revision', ...(await revisionPreview(result.bytes, input.rel)) });
    const skipped = args.edits.length - result.applied;
    return {
      content:
        `Wrote ${rel}: ${result.applied} of ${args.edits.length} edit(s) as tracked changes by Folio with their reasons as comments` +
        `${skipped > 0 ? `; ${skipped} not applied (fix and call again on the original with only those edits, or on ${rel})` : ''}.\n${report}`,
      touched: [rel],
    };
  },
};
