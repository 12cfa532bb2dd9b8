// Agent Skills (progressive disclosure): a skill is a folder with SKILL.md (YAML frontmatter with
// name and description, markdown body) and optional references/, scripts/, assets/. Only name and
// description reach the system prompt; the body is loaded on demand. User skills in <data>/skills
// override built-in ones of the same name. A broken skill is skipped with a warning.
// A skill whose frontmatter also declares any of model / tools / max_turns / input / output is an
// agent skill (seed 000): it is offered as the tool `skill_<name>` and runs as a nested agent
// (subagents/skill-agents.ts). Unknown keys are allowed by the Agent Skills format, so such a file
// stays valid for other tools.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { LocalizedText, type ConfigFinding, type ConfigWarning, type SkillInfo } from '../../shared/contract';
import { formatZodError, zodErrorFields } from '../../shared/errors';
import { configWarning, yamlErrorLine } from '../config/config-warning';
import { yamlLib } from '../config/yaml';

/** Turn limits per nesting level: the default when a skill names none, and the most it may ask for. */
export const DEFAULT_SKILL_TURNS = 10;
export const MAX_SKILL_TURNS = 50;
const ArgName = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/u, 'input argument names are lowercase letters, digits and _');
/** Skill names: the Agent Skills rule (lowercase letters, digits, hyphens), so `skill_<name>` is a valid tool name. */
export const SKILL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/u;

const Frontmatter = z.object({
  name: z.string().regex(SKILL_NAME, 'name: lowercase letters, digits and hyphens, at most 64'),
  description: z.string().min(1).max(1024),
  // Person-facing (Settings → Skills); the model sees only name and description.
  title: LocalizedText.optional(),
  summary: LocalizedText.optional(),
  license: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  'allowed-tools': z.union([z.string(), z.array(z.string())]).optional(),
  model: z.string().min(1).max(128).optional(),
  tools: z.array(z.string().min(1).max(128)).max(64).optional(),
  max_turns: z.number().int().min(1).max(MAX_SKILL_TURNS).optional(),
  input: z.record(ArgName, z.union([z.string().max(500), z.object({ description: z.string().max(500), required: z.boolean().default(true) })])).optional(),
  output: z
    .string()
    .min(1)
    .max(200)
    .refine((p) => !isAbsolute(p) && !p.split(/[\\/]/u).includes('..'), 'output must be a folder inside the task (relative, without ..)')
    .optional(),
});

/** The part of a skill that makes it a sub-agent; null for a skill of loaded instructions. */
export interface SkillAgentSpec {
  /** A profile id, `worker` (the cheap role), or null: the task's own model. */
  model: string | null;
  /** Allowed tool names (other skills as `skill_<name>` or their bare name); null: the read-only tools. */
  tools: string[] | null;
  maxTurns: number;
  input: { name: string; description: string; required: boolean }[];
  /** A folder under the task where the skill's files go, or null. */
  output: string | null;
}

export interface Skill extends SkillInfo {
  body: string;
  dir: string;
  agent: SkillAgentSpec | null;
}

type Parsed = z.infer<typeof Frontmatter>;

function agentSpec(f: Parsed): SkillAgentSpec | null {
  if (f.model === undefined && f.tools === undefined && f.max_turns === undefined && f.input === undefined && f.output === undefined) return null;
  const input = Object.entries(f.input ?? {}).map(([name, v]) =>
    typeof v === 'string' ? { name, description: v, required: true } : { name, description: v.description, required: v.required },
  );
  return { model: f.model ?? null, tools: f.tools ?? null, maxTurns: f.max_turns ?? DEFAULT_SKILL_TURNS, input, output: f.output ?? null };
}

/** A SKILL.md that cannot be used: what is wrong, typed, and the checker's own words as the message. */
export class SkillFileError extends Error {
  constructor(
    readonly finding: ConfigFinding,
    message: string,
  ) {
    super(message);
    this.name = 'SkillFileError';
  }
}

export function parseSkillFile(text: string): { frontmatter: z.infer<typeof Frontmatter>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) throw new SkillFileError({ kind: 'skill_no_frontmatter' }, 'SKILL.md must start with YAML frontmatter between --- lines');
  let doc: unknown;
  try {
    doc = yamlLib().parse(match[1]);
  } catch (err) {
    // The frontmatter starts on the file's second line.
    const line = yamlErrorLine(err);
    throw new SkillFileError({ kind: 'skill_invalid_yaml', line: line === null ? null : line + 1 }, err instanceof Error ? err.message : String(err));
  }
  const parsed = Frontmatter.safeParse(doc);
  if (!parsed.success) throw new SkillFileError({ kind: 'skill_invalid', fields: zodErrorFields(parsed.error) }, formatZodError(parsed.error));
  return { frontmatter: parsed.data, body: match[2].trim() };
}

/**
 * Skills are read at each run's start and again for each turn's tool list, and parsing one (YAML,
 * then the schema) is what a read costs: ~4 ms for the 12 built-in skills, several times in every
 * run's time to its first answer. So a file is parsed once per content: keyed by its text, an edit
 * applies at the next read, and an unchanged file gives back the same (read-only) Skill.
 */
const parsedSkills = new Map<string, Skill | Unusable>();
const MAX_PARSED_SKILLS = 512;

/** Why a skill file was skipped: the finding and the checker's detail. */
interface Unusable {
  error: { finding: ConfigFinding; detail: string };
}

function unusable(err: unknown): Unusable {
  const detail = err instanceof Error ? err.message : String(err);
  return { error: { finding: err instanceof SkillFileError ? err.finding : { kind: 'skill_unreadable' }, detail } };
}

function readSkill(source: Skill['source'], dir: string, file: string): Skill | Unusable {
  const text = readFileSync(file, 'utf8');
  const key = `${source}\0${file}\0${text}`;
  let parsed = parsedSkills.get(key);
  if (!parsed) {
    try {
      const { frontmatter, body } = parseSkillFile(text);
      parsed = { name: frontmatter.name, description: frontmatter.description, title: frontmatter.title, summary: frontmatter.summary, source, path: file, body, dir, agent: agentSpec(frontmatter) };
    } catch (err) {
      parsed = unusable(err);
    }
    if (parsedSkills.size >= MAX_PARSED_SKILLS) parsedSkills.clear();
    parsedSkills.set(key, parsed);
  }
  return parsed;
}

export function loadSkills(dirs: { builtin: string; user?: string }): { skills: Skill[]; warnings: ConfigWarning[] } {
  const byName = new Map<string, Skill>();
  const warnings: ConfigWarning[] = [];
  for (const [source, root] of [['builtin', dirs.builtin], ['user', dirs.user]] as const) {
    if (!root || !existsSync(root)) continue;
    for (const entry of readdirSync(root).sort()) {
      // skill_create stages a draft in a hidden folder before renaming it into place.
      if (entry.startsWith('.')) continue;
      const dir = join(root, entry);
      const file = join(dir, 'SKILL.md');
      if (!statSync(dir).isDirectory() || !existsSync(file)) continue;
      let skill: Skill | Unusable;
      try {
        skill = readSkill(source, dir, file);
      } catch (err) {
        skill = unusable(err);
      }
      if ('error' in skill) warnings.push(configWarning(file, skill.error.finding, skill.error.detail));
      else byName.set(skill.name, skill);
    }
  }
  return { skills: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), warnings };
}
