// propose_outline: the agent puts a deck's storyline before the person (one row per slide: takeaway
// title, layout, key points, source pages) and hands them the turn. The outline is stored as
// work/outline.json, unapproved; the person edits and approves it in the app, and only then may
// render_deck run. Rows keep the ids they are given; rows without one get a fresh id here.
import fs from 'node:fs/promises';
import { z } from 'zod';
import { assignOutlineIds, OutlineRowsInput } from '../../shared/specs/deck-outline';
import { OUTLINE_PATH, proposedOutline, writeOutline } from '../workspace/outline-file';
import { taskFolders } from '../workspace/task-paths';
import { ALL_AREAS, resolveToolPath, type Tool, ToolError, type ToolTraits } from './types';

const parameters = z.object({
  slides: OutlineRowsInput.describe(
    'One row per slide, in order: {id?, title (the takeaway, as the slide will state it), layout (a deck layout), ' +
      'points (2-3 key points; none for title/section/closing), sources ([{file: "source/x.pdf", pages: "3-5"}])}. ' +
      'Keep the ids of rows you already proposed; new rows get one.',
  ),
});

const DESCRIPTION =
  'Propose the outline of a slide deck for the person to review before any slide is written: one row per slide with ' +
  'its takeaway title, its layout, two or three key points and the source pages it rests on. It is saved as ' +
  `${OUTLINE_PATH}; the person edits, reorders and approves it in the app. After calling it, stop and wait: their ` +
  'approval arrives as a message, with the approved outline (which may differ from yours) in your instructions. ' +
  'render_deck refuses to run while an outline is waiting for approval.';

// Writes only its own file under work/; the person reviews the result, so the call never asks first.
const traits: ToolTraits = { kind: 'edit', runsCode: false, network: false, paths: { read: ALL_AREAS, write: ['work'] }, writesArtifacts: false, endsTurn: true };

export const proposeOutlineTool: Tool<typeof parameters> = {
  name: 'propose_outline',
  description: DESCRIPTION,
  parameters,
  traits,
  async execute(args, ctx) {
    const missing = await missingSources(args.slides.flatMap((row) => row.sources.map((s) => s.file)), ctx);
    if (missing.length > 0) {
      throw new ToolError(`These source files are not in the task folder: ${missing.join(', ')}. Name files as the files list shows them (e.g. source/report.pdf).`);
    }
    const slides = assignOutlineIds(args.slides);
    const outline = proposedOutline(slides);
    await writeOutline(taskFolders(ctx).task, outline);
    const ids = slides.map((s) => s.id).join(', ');
    return {
      content:
        `Outline saved to ${OUTLINE_PATH}: ${slides.length} slide${slides.length === 1 ? '' : 's'} (ids ${ids}). ` +
        'The person is now reviewing it in the app and may edit, reorder, add or delete rows before approving. ' +
        'Stop here and wait: do not write the deck spec or render until their approval arrives as a message.',
      touched: [OUTLINE_PATH],
      announce: { type: 'outline_proposed', outline },
    };
  },
};

async function missingSources(files: string[], ctx: Parameters<Tool['execute']>[1]): Promise<string[]> {
  const missing: string[] = [];
  for (const file of new Set(files)) {
    try {
      const { abs } = resolveToolPath(ctx, traits, file, 'read');
      if (!(await fs.stat(abs)).isFile()) missing.push(file);
    } catch {
      missing.push(file);
    }
  }
  return missing;
}
