// Agent Skills (progressive disclosure): a skill is a folder with SKILL.md (YAML frontmatter with
// name and description, markdown body) and optional references/, scripts/, assets/. Only name and
// description reach the system prompt; the body is loaded on demand. User skills in <data>/skills
// override built-in ones of the same name. A broken skill is skipped with a warning.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type * as YamlLib from 'yaml';
import { z } from 'zod';
import type { ConfigWarning, SkillInfo } from '../../shared/contract';
import { formatZodError } from '../../shared/errors';

const Frontmatter = z.object({
  name: z.string().min(1).max(64),
  description: z.string().min(1).max(1024),
  license: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  'allowed-tools': z.union([z.string(), z.array(z.string())]).optional(),
});

let yaml: typeof YamlLib | undefined;

/** yaml (CommonJS, about 70 module files) is required at the first skill read, not at start-up. */
function yamlLib(): typeof YamlLib {
  yaml ??= createRequire(import.meta.url)('yaml') as typeof YamlLib;
  return yaml;
}

export interface Skill extends SkillInfo {
  body: string;
  dir: string;
}

export function parseSkillFile(text: string): { frontmatter: z.infer<typeof Frontmatter>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) throw new Error('SKILL.md must start with YAML frontmatter between --- lines');
  const parsed = Frontmatter.safeParse(yamlLib().parse(match[1]));
  if (!parsed.success) throw new Error(formatZodError(parsed.error));
  return { frontmatter: parsed.data, body: match[2].trim() };
}

export function loadSkills(dirs: { builtin: string; user?: string }): { skills: Skill[]; warnings: ConfigWarning[] } {
  const byName = new Map<string, Skill>();
  const warnings: ConfigWarning[] = [];
  for (const [source, root] of [['builtin', dirs.builtin], ['user', dirs.user]] as const) {
    if (!root || !existsSync(root)) continue;
    for (const entry of readdirSync(root).sort()) {
      const dir = join(root, entry);
      const file = join(dir, 'SKILL.md');
      if (!statSync(dir).isDirectory() || !existsSync(file)) continue;
      try {
        const { frontmatter, body } = parseSkillFile(readFileSync(file, 'utf8'));
        byName.set(frontmatter.name, { name: frontmatter.name, description: frontmatter.description, source, path: file, body, dir });
      } catch (err) {
        warnings.push({ source: file, message: `Skill skipped: ${err instanceof Error ? err.message : String(err)}` });
      }
    }
  }
  return { skills: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), warnings };
}
