// Approval policy as data, after gemini-cli's policy engine: a small typed list of rules, each with
// a tier (default < user < project < team) and a decision. One engine (engine.ts) evaluates them for
// the desktop and the team service alike. Rules marked `final` are the safety floor (a destructive
// call asks, whatever any tier says) and are evaluated before every other rule.
import type { ApprovalMode, ToolKind } from '../../../shared/contract';

export type RuleTier = 'default' | 'user' | 'project' | 'team';

/** Higher tiers win: an admin's team rule over a project's, over the person's, over Folio's defaults. */
export const TIER_RANK: Readonly<Record<RuleTier, number>> = { default: 0, user: 1, project: 2, team: 3 };

/** What the engine knows about one call when it decides. */
export interface CallFacts {
  mode: ApprovalMode;
  tool: string;
  kind: ToolKind;
  runsCode: boolean;
  endsTurn: boolean;
  delegates: boolean;
  alwaysAsks: boolean;
  risk: 'standard' | 'destructive';
  /** "Allow for this task" was given for this call's grant key, or the tool is always allowed. */
  granted: boolean;
}

/** A condition: every field given must hold (an array: one of its values). An empty condition matches every call. */
export interface RuleCondition {
  tool?: readonly string[];
  kind?: readonly ToolKind[];
  mode?: readonly ApprovalMode[];
  runsCode?: boolean;
  endsTurn?: boolean;
  delegates?: boolean;
  alwaysAsks?: boolean;
  risk?: 'standard' | 'destructive';
  granted?: boolean;
}

export interface ApprovalRule {
  tier: RuleTier;
  /** Why the rule exists; returned with the decision, so a test or a log can say which rule decided. */
  reason: string;
  when: RuleCondition;
  decision: 'allow' | 'ask';
  /** The floor no grant, setting or higher tier changes: tried first, in list order. Folio's own rules only. */
  final?: boolean;
}

/** Folio's own rules (seed 000's permission model per task mode), in the order they are tried. */
export const DEFAULT_RULES: readonly ApprovalRule[] = [
  { tier: 'default', final: true, reason: 'reading never asks', when: { kind: ['read'] }, decision: 'allow' },
  { tier: 'default', final: true, reason: "a sub-agent's own calls ask, each as at top level", when: { delegates: true, runsCode: false }, decision: 'allow' },
  { tier: 'default', final: true, reason: 'the tool asks in every mode', when: { alwaysAsks: true }, decision: 'ask' },
  { tier: 'default', final: true, reason: 'a destructive call always asks', when: { risk: 'destructive' }, decision: 'ask' },
  // A tool that hands the turn to the person (a proposed outline) is itself the question: asking
  // before it would ask twice. Code-running tools never get this pass.
  { tier: 'default', final: true, reason: 'the call is itself the question', when: { endsTurn: true, runsCode: false }, decision: 'allow' },
  { tier: 'default', reason: 'granted for this task, or always allowed', when: { granted: true }, decision: 'allow' },
  { tier: 'default', reason: 'code the model wrote runs only after a yes', when: { runsCode: true }, decision: 'ask' },
  { tier: 'default', reason: "Folio cannot know what an MCP server's tool does", when: { kind: ['mcp'] }, decision: 'ask' },
  { tier: 'default', reason: 'ask mode asks for everything that is not a read', when: { mode: ['ask'] }, decision: 'ask' },
  { tier: 'default', reason: 'auto-edit runs edits', when: { mode: ['auto-edit'], kind: ['edit'] }, decision: 'allow' },
  { tier: 'default', reason: 'auto-edit asks for the rest', when: { mode: ['auto-edit'] }, decision: 'ask' },
  { tier: 'default', reason: 'auto runs everything else', when: { mode: ['auto'] }, decision: 'allow' },
];
