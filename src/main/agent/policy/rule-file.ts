// Approval rules as a file of data: `approval-rules.json` in a core's data folder. On the desktop
// that folder is the person's, so its rules are the `user` tier; in the team service it is the
// tenant's folder, written by the operator (no method of the service writes it), so its rules are the
// `team` tier and outrank whatever a user chose. A project's own file (`projects/<id>/` in the same
// data folder) is the `project` tier, for that project's tasks. Read at each run's start: a change
// counts from the next run. A file that does not parse stops the run with a typed error naming it
// rather than running without the rules it meant to add.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ApprovalMode, ToolKind } from '../../../shared/contract';
import { FolioError } from '../../../shared/errors';
import type { ApprovalRule, RuleTier } from './rules';

export const APPROVAL_RULES_FILE = 'approval-rules.json';

export class ApprovalRulesError extends FolioError {
  constructor(message: string) {
    super('invalid_input', message, { name: 'ApprovalRulesError' });
  }
}

const RuleData = z.strictObject({
  reason: z.string().min(1).max(500),
  when: z.strictObject({
    tool: z.array(z.string().min(1)).min(1).optional(),
    kind: z.array(ToolKind).min(1).optional(),
    mode: z.array(ApprovalMode).min(1).optional(),
    runsCode: z.boolean().optional(),
    endsTurn: z.boolean().optional(),
    delegates: z.boolean().optional(),
    alwaysAsks: z.boolean().optional(),
    risk: z.enum(['standard', 'destructive']).optional(),
    granted: z.boolean().optional(),
  }),
  decision: z.enum(['allow', 'ask']),
});

/** The file's shape: `{ "rules": [{ "reason", "when": {…}, "decision": "allow" | "ask" }] }`; the tier is the folder's. */
export const RuleFile = z.strictObject({ rules: z.array(RuleData).max(500) });

/**
 * The rules `text` declares, each of `tier` (never `final`: the floor is Folio's own). `name` is how
 * errors name the file: relative to the data folder, so no server path reaches a tenant.
 */
export function parseRuleFile(text: string, tier: Exclude<RuleTier, 'default'>, name: string = APPROVAL_RULES_FILE): ApprovalRule[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ApprovalRulesError(`${name}: not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const parsed = RuleFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApprovalRulesError(`${name}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data.rules.map((rule) => ({ ...rule, tier }));
}

/**
 * The rules of `<dataDir>/<folder>/approval-rules.json` as `tier` (`folder` '' for the data folder
 * itself); none when there is no such file.
 */
export async function loadRuleFile(dataDir: string, tier: Exclude<RuleTier, 'default'>, folder = ''): Promise<ApprovalRule[]> {
  const name = folder === '' ? APPROVAL_RULES_FILE : `${folder}/${APPROVAL_RULES_FILE}`;
  let text: string;
  try {
    text = await readFile(join(dataDir, name), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return parseRuleFile(text, tier, name);
}
