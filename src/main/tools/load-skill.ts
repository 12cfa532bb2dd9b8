// `load_skill {name, file?}`: the activation step of progressive disclosure. Without `file` it
// returns the skill's body; with `file` one of the skill's own files (references/, assets/), which
// live outside the task folder and so cannot be reached with `read`.
import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { resolveInside } from '../workspace/task-paths';
import { NO_PATHS, type Tool } from './types';
import { ToolError } from './types';
import type { Skill } from '../skills/skill-registry';

const MAX_FILE_BYTES = 200_000;

const parameters = z.object({
  name: z.string().min(1).describe('The skill name, as listed in the system prompt'),
  file: z.string().min(1).max(300).optional().describe("A file inside the skill's folder, e.g. references/cheatsheet.md"),
});

export function createLoadSkillTool(getSkills: () => Skill[]): Tool<typeof parameters> {
  return {
    name: 'load_skill',
    description:
      "Load a skill listed in the system prompt: without `file`, its full instructions (call this before doing the kind of work the skill describes); with `file`, one of the skill's reference or asset files that its instructions point to.",
    parameters,
    // Skill files are named relative to the skill's own folder, not the task: no task paths.
    traits: { kind: 'read', runsCode: false, network: false, paths: NO_PATHS, writesArtifacts: false, endsTurn: false },
    async execute(args) {
      const skills = getSkills();
      const skill = skills.find((s) => s.name === args.name);
      if (!skill) throw new ToolError(`No skill named "${args.name}". Available: ${skills.map((s) => s.name).join(', ') || '(none)'}`);
      if (!args.file) {
        return { content: `# Skill: ${skill.name}\n(To open a file this skill mentions, call load_skill with name "${skill.name}" and file "<path>".)\n\n${skill.body}` };
      }
      const abs = resolveInside(skill.dir, args.file);
      let size: number;
      try {
        const stat = statSync(abs);
        if (!stat.isFile()) throw new Error('not a file');
        size = stat.size;
      } catch {
        throw new ToolError(`No file "${args.file}" in skill ${skill.name}`);
      }
      if (size > MAX_FILE_BYTES) throw new ToolError(`${args.file} is too large to load (${size} bytes)`);
      return { content: readFileSync(abs, 'utf8') };
    },
  };
}
