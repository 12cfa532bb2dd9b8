// propose_plan: the agent puts a document's plan before the person (a proposal's spec_lock.md:
// requirements, outline, word budgets, open questions) and asks them to approve it before any
// section is written. The call is the question: it asks in every mode, and the person's yes both
// saves the plan as work/spec_lock.md and, once it is saved, allows for this task what the plan
// leads to — writing the document's files under work/ and rendering it — so those no longer ask one
// by one. A no comes back to the agent with what the person wants changed.
import { z } from 'zod';
import { writeInside } from '../workspace/task-paths';
import { resolveToolPath, type Tool, ToolError, type ToolTraits, WORK_AREA_SCOPE } from './types';

export const PLAN_PATH = 'work/spec_lock.md';

const parameters = z.object({
  content: z
    .string()
    .min(1)
    .describe('The whole plan in Markdown, as spec_lock.md will hold it: requirements, core idea, outline with sources, word budgets, open questions (待确认事项).'),
});

const DESCRIPTION =
  `Put the plan of a proposal or report before the person for approval, before writing any section. It is shown to them in full; ` +
  `when they approve, it is saved as ${PLAN_PATH} and, for the rest of this task, writing files under work/ and render_document ` +
  'no longer ask. If they decline, their reason comes back: revise the plan and propose it again. Call it once per plan, ' +
  'with the complete text (not a path).';

// Writes only its own file under work/; asks in every mode, since the person's yes is the point.
const traits: ToolTraits = { kind: 'edit', runsCode: false, network: false, paths: { read: [], write: ['work'] }, writesArtifacts: false, endsTurn: false, alwaysAsks: true };

export const proposePlanTool: Tool<typeof parameters> = {
  name: 'propose_plan',
  description: DESCRIPTION,
  parameters,
  traits,
  approvalGrants: [
    { tool: 'write', scope: WORK_AREA_SCOPE },
    { tool: 'edit', scope: WORK_AREA_SCOPE },
    { tool: 'render_document', scope: '' },
  ],
  async execute(args, ctx) {
    const { rel, root } = resolveToolPath(ctx, traits, PLAN_PATH, 'write');
    try {
      await writeInside(root, rel, args.content.endsWith('\n') ? args.content : `${args.content}\n`);
    } catch (err) {
      // The loop records the plan's grants only when this call succeeds: an unsaved plan allows nothing.
      const why = err instanceof Error ? err.message : String(err);
      throw new ToolError(`The person approved the plan, but it could not be saved as ${PLAN_PATH} (${why}), so the approval allowed nothing. Propose the plan again once it can be saved.`);
    }
    return {
      content:
        `The person approved the plan; it is saved as ${PLAN_PATH}. Write the document's files under work/ following it ` +
        '(re-read it for each section), then render with render_document: in this task these no longer ask for approval.',
      touched: [rel],
    };
  },
};
