// Rules as a file of data: parsed strictly, given the folder's tier, and a team's rule outranks a
// user's when the one engine decides.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolCatalog } from '../../tools/catalog';
import { needsApproval } from '../approval-policy';
import { decide } from './engine';
import { APPROVAL_RULES_FILE, ApprovalRulesError, loadRuleFile, parseRuleFile } from './rule-file';
import { DEFAULT_RULES, type CallFacts } from './rules';

const facts = (o: Partial<CallFacts>): CallFacts => ({
  mode: 'ask',
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

const fetchFreely = JSON.stringify({ rules: [{ reason: 'I fetch freely', when: { tool: ['web_fetch'] }, decision: 'allow' }] });
const teamReviewsFetches = JSON.stringify({ rules: [{ reason: 'the team reviews every fetch', when: { kind: ['fetch'] }, decision: 'ask' }] });

describe('approval rule files', () => {
  it("gives each rule the folder's tier, and a team rule overrides a user rule in the one engine", () => {
    const user = parseRuleFile(fetchFreely, 'user');
    const team = parseRuleFile(teamReviewsFetches, 'team');
    expect(user).toEqual([{ tier: 'user', reason: 'I fetch freely', when: { tool: ['web_fetch'] }, decision: 'allow' }]);
    expect(decide([...DEFAULT_RULES, ...user], facts({}))).toMatchObject({ decision: 'allow', rule: { tier: 'user' } });
    expect(decide([...DEFAULT_RULES, ...user, ...team], facts({}))).toMatchObject({ decision: 'ask', rule: { tier: 'team', reason: 'the team reviews every fetch' } });
    // Also over a person's "Allow for this task" / "always allow" (a grant).
    expect(decide([...DEFAULT_RULES, ...team], facts({ mode: 'auto', granted: true })).decision).toBe('ask');
    const webFetch = toolCatalog().find((t) => t.name === 'web_fetch')!;
    expect(needsApproval({ mode: 'ask', traits: webFetch.traits, risk: 'standard', granted: false, tool: 'web_fetch' }, [...DEFAULT_RULES, ...user])).toBe(false);
    expect(needsApproval({ mode: 'ask', traits: webFetch.traits, risk: 'standard', granted: false, tool: 'web_fetch' }, [...DEFAULT_RULES, ...user, ...team])).toBe(true);
  });

  it('refuses a malformed file with a typed error naming the field; a rule cannot claim the floor or a tier', () => {
    expect(() => parseRuleFile('{"rules": [', 'team')).toThrow(ApprovalRulesError);
    expect(() => parseRuleFile(JSON.stringify({ rules: [{ reason: 'x', when: { kind: ['teleport'] }, decision: 'allow' }] }), 'team')).toThrow(/rules\.0\.when\.kind\.0/);
    expect(() => parseRuleFile(JSON.stringify({ rules: [{ reason: 'x', when: {}, decision: 'allow', final: true }] }), 'team')).toThrow(ApprovalRulesError);
    expect(() => parseRuleFile(JSON.stringify({ rules: [{ reason: 'x', when: {}, decision: 'allow', tier: 'team' }] }), 'user')).toThrow(ApprovalRulesError);
    expect(() => parseRuleFile(JSON.stringify({ rules: [{ reason: 'x', when: {}, decision: 'maybe' }] }), 'user')).toThrow(/decision/);
  });

  it('reads approval-rules.json of a data folder; none there is no rules', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-rules-'));
    expect(await loadRuleFile(dir, 'team')).toEqual([]);
    writeFileSync(join(dir, APPROVAL_RULES_FILE), teamReviewsFetches);
    expect(await loadRuleFile(dir, 'team')).toMatchObject([{ tier: 'team', decision: 'ask' }]);
  });
});
