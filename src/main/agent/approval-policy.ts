// Which tool calls need a person's yes (seed 000's permission model, per task mode), read from the
// tool's declared traits, never from a list of names:
//   ask        every edit / execute / fetch tool asks
//   auto-edit  edits inside the task folder run; execute / fetch ask
//   auto       everything runs except tools that run code, which ask
//   (any mode) an MCP server's tool (kind mcp) asks: Folio cannot know what it does
// "Allow for this task" grants a tool for the task, except for tools that run code: there it grants
// the exact command (the tool's grantScope), never the whole tool. A destructive call always asks,
// whatever was granted, and a blocked one never runs.
// "Always allow this tool" (global, in Settings) grants a whole tool in every task, so only tools that
// do not run code may have it (isAlwaysAllowable); one found in the settings for any other tool is ignored.
// The table itself is data (policy/rules.ts, DEFAULT_RULES), evaluated by one engine (policy/engine.ts)
// together with any user, project or team rules a core adds.
import { posix } from 'node:path';
import type { ApprovalMode } from '../../shared/contract';
import { type GrantContext, type ToolTraits, WORK_AREA_SCOPE } from '../tools/types';
import { decide } from './policy/engine';
import { DEFAULT_RULES, type ApprovalRule } from './policy/rules';

export interface ApprovalQuestion {
  mode: ApprovalMode;
  traits: Pick<ToolTraits, 'kind' | 'runsCode' | 'endsTurn' | 'delegates' | 'alwaysAsks'>;
  risk: 'standard' | 'destructive';
  granted: boolean;
  /** The tool's name, for rules that name tools. */
  tool?: string;
}

/** Whether the call waits for a person's yes under `rules` (Folio's defaults unless a core adds tiers). */
export function needsApproval(q: ApprovalQuestion, rules: readonly ApprovalRule[] = DEFAULT_RULES): boolean {
  const facts = {
    mode: q.mode,
    tool: q.tool ?? '',
    kind: q.traits.kind,
    runsCode: q.traits.runsCode,
    endsTurn: q.traits.endsTurn,
    delegates: q.traits.delegates === true,
    alwaysAsks: q.traits.alwaysAsks === true,
    risk: q.risk,
    granted: q.granted,
  };
  return decide(rules, facts).decision === 'ask';
}

/** What a grant for this call is keyed by. */
export interface GrantKey {
  tool: string;
  /** '' covers the whole tool; otherwise the exact scope (a normalized command, a script's hash). */
  scope: string;
}

/**
 * The grant "Allow for this task" would record for a call, or null when none may be recorded (a
 * code-running tool without a scope: it is then only ever allowed once).
 */
export function grantKeyFor(
  tool: { name: string; traits: Pick<ToolTraits, 'runsCode'>; grantScope?: (args: never, ctx?: GrantContext) => string },
  args: unknown,
  ctx?: GrantContext,
): GrantKey | null {
  if (!tool.traits.runsCode) return { tool: tool.name, scope: '' };
  if (!tool.grantScope) return null;
  const scope = (tool.grantScope as (a: unknown, c?: GrantContext) => string)(args, ctx);
  return scope === '' ? null : { tool: tool.name, scope };
}

export { WORK_AREA_SCOPE };

/**
 * The area grant that would cover a call: a write under work/ by an editing tool that does not run
 * code (an approved outline grants these, so writing the deck spec and re-writing it for a slide
 * change do not ask again). Paths are normalized first: `work/../source/x` is not under work/.
 */
export function workAreaGrantFor(tool: { name: string; traits: Pick<ToolTraits, 'runsCode' | 'kind'> }, args: unknown): GrantKey | null {
  if (tool.traits.runsCode || tool.traits.kind !== 'edit') return null;
  const path = typeof args === 'object' && args !== null ? (args as { path?: unknown }).path : undefined;
  if (typeof path !== 'string') return null;
  const normal = posix.normalize(path.replace(/\\/gu, '/'));
  return normal.startsWith(WORK_AREA_SCOPE) ? { tool: tool.name, scope: WORK_AREA_SCOPE } : null;
}

/**
 * Whether "always allow this tool" may be given: the tool does not run code (commands and scripts
 * are granted per exact command only) and would ask at all (read-only tools and tools whose call is
 * itself the question never do). Read from traits through the policy itself, so a new kind (e.g.
 * MCP tools) is covered by what the policy says about it.
 */
export function isAlwaysAllowable(traits: ApprovalQuestion['traits']): boolean {
  return !traits.runsCode && traits.alwaysAsks !== true && asksAtAll(traits);
}

/** Whether an ordinary call of a tool with these traits can ask at all (in the strictest mode, without grants). */
export function asksAtAll(traits: ApprovalQuestion['traits']): boolean {
  return needsApproval({ mode: 'ask', traits, risk: 'standard', granted: false });
}

/**
 * Whether a call counts as granted: "Allow for this task" recorded for its grant key, an area grant
 * covering it (an approved outline's writes under work/), or the tool is
 * always allowed (only honoured for tools that may be, whatever the settings say).
 */
export async function isCallGranted(
  tool: { name: string; traits: ApprovalQuestion['traits'] & Pick<ToolTraits, 'kind'> },
  grant: GrantKey | null,
  args: unknown,
  lookups: { forTask(grant: GrantKey): Promise<boolean>; always(toolName: string): Promise<boolean> },
): Promise<boolean> {
  if (grant !== null && (await lookups.forTask(grant))) return true;
  const area = workAreaGrantFor(tool, args);
  if (area !== null && (await lookups.forTask(area))) return true;
  return isAlwaysAllowable(tool.traits) && (await lookups.always(tool.name));
}
