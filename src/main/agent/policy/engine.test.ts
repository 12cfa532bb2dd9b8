// One engine decides with Folio's default rules and any user, project or team tiers; the floor
// (destructive calls, tools that always ask) holds whatever a tier says.
import { describe, expect, it } from 'vitest';
import { toolCatalog } from '../../tools/catalog';
import { needsApproval } from '../approval-policy';
import { decide, orderRules } from './engine';
import { DEFAULT_RULES, type ApprovalRule, type CallFacts } from './rules';

const facts = (o: Partial<CallFacts>): CallFacts => ({
  mode: 'auto',
  tool: 'web_fetch',
  kind: 'fetch',
  runsCode: false,
  endsTurn: false,
  delegates: false,
  alwaysAsks: false,
  risk: 'standard',
  granted: false,
  ...o,
});

describe('approval rule engine', () => {
  it('names the default rule that decided', () => {
    expect(decide(DEFAULT_RULES, facts({ mode: 'auto' }))).toMatchObject({ decision: 'allow', rule: { reason: 'auto runs everything else' } });
    expect(decide(DEFAULT_RULES, facts({ risk: 'destructive', granted: true }))).toMatchObject({ decision: 'ask', rule: { reason: 'a destructive call always asks' } });
  });

  it('a team rule outranks the defaults and a project rule; a higher tier wins whatever the list order', () => {
    const team: ApprovalRule = { tier: 'team', reason: 'the team reviews every fetch', when: { kind: ['fetch'] }, decision: 'ask' };
    const project: ApprovalRule = { tier: 'project', reason: 'this project fetches freely', when: { kind: ['fetch'] }, decision: 'allow' };
    const rules = [...DEFAULT_RULES, project, team];
    expect(decide(rules, facts({ mode: 'auto' }))).toMatchObject({ decision: 'ask', rule: { tier: 'team' } });
    expect(decide(rules, facts({ mode: 'auto', granted: true }))).toMatchObject({ decision: 'ask', rule: { tier: 'team' } });
    expect(decide([...DEFAULT_RULES, project], facts({ mode: 'ask' }))).toMatchObject({ decision: 'allow', rule: { tier: 'project' } });
    expect(orderRules(rules).indexOf(team)).toBeLessThan(orderRules(rules).indexOf(project));
  });

  it('no tier lowers the floor: a destructive call and an always-asking tool still ask', () => {
    const allowAll: ApprovalRule = { tier: 'team', reason: 'allow everything', when: {}, decision: 'allow' };
    const rules = [...DEFAULT_RULES, allowAll];
    expect(decide(rules, facts({ risk: 'destructive' })).decision).toBe('ask');
    expect(decide(rules, facts({ alwaysAsks: true, kind: 'edit' })).decision).toBe('ask');
    expect(decide(rules, facts({ runsCode: true, kind: 'execute', tool: 'shell' })).decision).toBe('allow');
  });

  it('a call no rule matches asks', () => {
    expect(decide([], facts({}))).toEqual({ decision: 'ask', rule: null });
  });

  it('the defaults as data decide every catalog tool in every mode as the policy always did', () => {
    for (const tool of toolCatalog()) {
      for (const mode of ['ask', 'auto-edit', 'auto'] as const) {
        for (const granted of [false, true]) {
          const q = { mode, traits: tool.traits, risk: 'standard' as const, granted, tool: tool.name };
          expect(needsApproval(q, [...DEFAULT_RULES, { tier: 'user', reason: 'unrelated', when: { tool: ['no_such_tool'] }, decision: 'allow' }])).toBe(needsApproval(q));
        }
      }
    }
  });
});
