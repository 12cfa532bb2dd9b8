// `skill_create {name, description, body, model?, tools?}` (seed 000): the agent drafts a new skill.
// The person sees the whole SKILL.md in the approval card (asked in every mode); once approved it is
// written to <data>/skills/<name>/SKILL.md in one rename, so a reader never sees half a skill and an
// existing skill (built-in or the person's) is never replaced. Tools are re-read at every model turn,
// so `skill_<name>` is offered from the next turn, without a restart.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { z } from 'zod';
import { DEFAULT_SKILL_TURNS, parseSkillFile, SKILL_NAME, type Skill } from '../skills/skill-registry';
import { NO_PATHS, ToolError, type Tool } from './types';

const parameters = z.object({
  name: z.string().regex(SKILL_NAME).describe('lowercase letters, digits and hyphens, e.g. "grant-budget-check"; offered as the tool skill_<name>'),
  description: z.string().min(20).max(1024).describe('What the skill does and when to use it (the calling model chooses by this)'),
  body: z.string().min(20).max(20_000).describe("The skill's instructions in markdown: its system prompt when it runs"),
  model: z.string().min(1).max(128).optional().describe('A model profile id, or "worker" for the cheap profile; default: the task\'s model'),
  tools: z.array(z.string().min(1).max(128)).max(64).optional().describe('Tools it may call (other skills as skill_<name>); default: the read-only tools'),
});
type Args = z.output<typeof parameters>;

export interface SkillCreateOptions {
  /** <data>/skills */
  userDir: string;
  /** Every skill installed now (built-in and the person's), to refuse a name already taken. */
  skills: () => Skill[];
}

/** The SKILL.md a draft becomes; it always carries max_turns, so it runs as a sub-agent. */
export function renderSkillFile(args: Args): string {
  const front: Record<string, unknown> = { name: args.name, description: args.description };
  if (args.model) front.model = args.model;
  if (args.tools) front.tools = args.tools;
  front.max_turns = DEFAULT_SKILL_TURNS;
  return `---\n${toYaml(front).trimEnd()}\n---\n\n${args.body.trim()}\n`;
}

function check(args: Args, opts: SkillCreateOptions): string {
  const taken = opts.skills().find((s) => s.name === args.name);
  if (taken) throw new ToolError(`A skill named "${args.name}" already exists (${taken.source}, ${taken.path}); skills are never replaced. Choose another name.`);
  const text = renderSkillFile(args);
  try {
    parseSkillFile(text);
  } catch (err) {
    throw new ToolError(`This draft would not load as a skill: ${err instanceof Error ? err.message : String(err)}`);
  }
  return text;
}

export function createSkillCreateTool(opts: SkillCreateOptions): Tool<typeof parameters> {
  return {
    name: 'skill_create',
    description:
      'Draft a new skill that runs as a sub-agent (its body is its system prompt). The person reviews the draft and approves it; it is then saved among their skills and callable as skill_<name> from the next step. Refused if the name is taken.',
    parameters,
    traits: { kind: 'edit', runsCode: false, network: false, paths: NO_PATHS, writesArtifacts: false, endsTurn: false, alwaysAsks: true },
    // Checked before the person is asked: a taken name or a draft that would not load is the model's to fix.
    assess: (args) => ({ risk: 'standard', detail: `${join(opts.userDir, args.name, 'SKILL.md')}\n\n${check(args, opts)}` }),
    async execute(args) {
      const text = check(args, opts);
      mkdirSync(opts.userDir, { recursive: true });
      const staging = mkdtempSync(join(opts.userDir, `.draft-${args.name}-`));
      try {
        writeFileSync(join(staging, 'SKILL.md'), text, { flag: 'wx' });
        // rename(2) of a folder fails when the target exists and is not empty: never an overwrite.
        renameSync(staging, join(opts.userDir, args.name));
      } catch (err) {
        rmSync(staging, { recursive: true, force: true });
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOTEMPTY' || code === 'EEXIST') throw new ToolError(`A skill folder "${args.name}" already exists; choose another name.`);
        throw err;
      }
      return { content: `Saved skill "${args.name}" to ${join(opts.userDir, args.name, 'SKILL.md')}. From the next step it is available as the tool skill_${args.name}.` };
    },
  };
}
