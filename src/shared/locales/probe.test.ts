import { describe, expect, it } from 'vitest';
import { PROBE_CHECKS, type ProbeFact } from '../contract/probe';
import { probeCheckKey, probeFactKey, type ProbeCatalog } from './probe';
import { loadLateStrings } from './late-strings';

const cjk = /[\u3400-\u9fff]/u;
const leaves = (node: object, prefix = ''): [string, string][] =>
  Object.entries(node).flatMap(([k, v]): [string, string][] => (typeof v === 'string' ? [[`${prefix}${k}`, v]] : leaves(v as object, `${prefix}${k}.`)));

describe('the probe catalog', () => {
  it('holds the same keys in both languages, every Chinese one worded in Chinese', async () => {
    const [en, zh]: ProbeCatalog[] = await Promise.all([loadLateStrings('en'), loadLateStrings('zh-CN')]);
    const zhLeaves = new Map(leaves(zh.probeReport));
    expect([...zhLeaves.keys()].sort()).toEqual(leaves(en.probeReport).map(([k]) => k).sort());
    // A value shown as it was (the levels, the fields sent) is the only thing without Chinese words.
    for (const [key, text] of zhLeaves) if (!['fact.levels', 'fact.sends'].includes(key)) expect(text, key).toMatch(cjk);
  });

  it('has a name for every check and a sentence for every fact', async () => {
    const zh = await loadLateStrings('zh-CN');
    for (const check of PROBE_CHECKS) expect(zh.probeReport.check[probeCheckKey(check)], check).toBeTruthy();
    const facts: ProbeFact[] = [
      { kind: 'flag', value: false },
      { kind: 'thinking_mode', mode: 'toggle' },
      { kind: 'tool_calls', count: 3 },
      { kind: 'reasoning', streamed: false },
      { kind: 'accepted', reasoning: 'streamed_anyway' },
      { kind: 'rejected', message: 'x' },
    ];
    for (const fact of facts) expect(zh.probeReport.fact[probeFactKey(fact)], fact.kind).toMatch(cjk);
  });
});
