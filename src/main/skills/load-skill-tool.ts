// `load_skill {name}`: the activation step of progressive disclosure. The body comes back with the
// skill's folder so the model can read its references/ on demand.
import { z } from 'zod';
import type { Tool } from '../tools/types';
import { ToolError } from '../tools/types';
import type { Skill } from './skill-registry';

export function createLoadSkillTool(getSkills: () => Skill[]): Tool {
  return {
    name: 'load_skill',
    description: 'Load the full instructions of a skill listed in the system prompt. Call it before doing the kind of work the skill describes.',
    parameters: z.object({ name: z.string().min(1).describe('The skill name, as listed') }),
    kind: 'read',
    async execute(args: { name: string }) {
      const skills = getSkills();
      const skill = skills.find((s) => s.name === args.name);
      if (!skill) throw new ToolError(`No skill named "${args.name}". Available: ${skills.map((s) => s.name).join(', ') || '(none)'}`);
      return { content: `# Skill: ${skill.name}\n(folder: ${skill.dir}; read its references/ files with the read tool when the body points to them)\n\n${skill.body}` };
    },
  };
}
