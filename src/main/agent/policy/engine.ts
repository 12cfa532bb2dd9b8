// The one evaluator of approval rules (rules.ts): the final rules first (the floor, in list order),
// then the others from the highest tier down, and in a tier the first rule in list order. A call no
// rule matches asks: the safe answer.
import { TIER_RANK, type ApprovalRule, type CallFacts, type RuleCondition } from './rules';

export interface RuleDecision {
  decision: 'allow' | 'ask';
  /** The rule that decided, or null when none matched. */
  rule: ApprovalRule | null;
}

export function matches(when: RuleCondition, facts: CallFacts): boolean {
  if (when.tool && !when.tool.includes(facts.tool)) return false;
  if (when.kind && !when.kind.includes(facts.kind)) return false;
  if (when.mode && !when.mode.includes(facts.mode)) return false;
  if (when.runsCode !== undefined && when.runsCode !== facts.runsCode) return false;
  if (when.endsTurn !== undefined && when.endsTurn !== facts.endsTurn) return false;
  if (when.delegates !== undefined && when.delegates !== facts.delegates) return false;
  if (when.alwaysAsks !== undefined && when.alwaysAsks !== facts.alwaysAsks) return false;
  if (when.risk !== undefined && when.risk !== facts.risk) return false;
  if (when.granted !== undefined && when.granted !== facts.granted) return false;
  return true;
}

/** The rules in the order they are tried. Stable: rules of one tier keep their list order. */
export function orderRules(rules: readonly ApprovalRule[]): ApprovalRule[] {
  const floor = rules.filter((r) => r.final === true);
  const tiered = rules
    .map((rule, index) => ({ rule, index }))
    .filter(({ rule }) => rule.final !== true)
    .sort((a, b) => TIER_RANK[b.rule.tier] - TIER_RANK[a.rule.tier] || a.index - b.index)
    .map(({ rule }) => rule);
  return [...floor, ...tiered];
}

export function decide(rules: readonly ApprovalRule[], facts: CallFacts): RuleDecision {
  for (const rule of orderRules(rules)) if (matches(rule.when, facts)) return { decision: rule.decision, rule };
  return { decision: 'ask', rule: null };
}
