// Every shipped profile × every task reasoning setting → the exact reasoning fields of the request
// body, and what the run says it applied. A yaml change that alters what a provider receives fails here.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ReasoningMode } from '../../shared/contract';
import { loadModelProfiles } from '../models/load-profiles';
import { planReasoning, reasoningModes } from '../models/reasoning';
import { fakeProfile } from '../../../testing/fake-openai/fake-profile';
import { buildRequestBody } from './request-params';

const builtin = fileURLToPath(new URL('../../../config/models', import.meta.url));
const { profiles } = loadModelProfiles({ builtin });

type Setting = ReasoningMode | null;
type Fields = Record<string, unknown>;
/** For each setting: the reasoning fields sent, and the mode applied ('=' when honoured as asked). */
type Row = Record<'default' | ReasoningMode, { body: Fields; applied?: ReasoningMode }>;

const off = { type: 'disabled' };
const on = { type: 'enabled' };
const deepseek: Row = {
  default: { body: { reasoning_effort: 'high' } },
  none: { body: { thinking: off } },
  thinking: { body: { thinking: on, reasoning_effort: 'high' } },
  max: { body: { thinking: on, reasoning_effort: 'max' } },
};
const cannotReason: Row = {
  default: { body: {} },
  none: { body: {} },
  thinking: { body: {}, applied: 'none' },
  max: { body: {}, applied: 'none' },
};
const qwenToggle: Row = {
  default: { body: {} },
  none: { body: { enable_thinking: false } },
  thinking: { body: { enable_thinking: true } },
  max: { body: { enable_thinking: true }, applied: 'thinking' },
};
const glmToggle: Row = {
  default: { body: {} },
  none: { body: { thinking: off } },
  thinking: { body: { thinking: on } },
  max: { body: { thinking: on }, applied: 'thinking' },
};

const expected: Record<string, Row> = {
  'deepseek.flash': deepseek,
  'deepseek.pro': deepseek,
  'openai.gpt41': cannotReason,
  'openai.gpt41-mini': cannotReason,
  'openai.gpt5': {
    default: { body: { reasoning_effort: 'medium' } },
    // GPT-5 cannot stop reasoning; it keeps its default effort and the run says so.
    none: { body: { reasoning_effort: 'medium' }, applied: 'thinking' },
    thinking: { body: { reasoning_effort: 'medium' } },
    max: { body: { reasoning_effort: 'high' } },
  },
  'qwen.plus': qwenToggle,
  'qwen.max': cannotReason,
  'qwen.turbo': qwenToggle,
  'zhipu.glm46': glmToggle,
  'zhipu.air': glmToggle,
  'zhipu.flash': glmToggle,
  'ollama.qwen3': {
    default: { body: {} },
    none: { body: {}, applied: 'thinking' },
    thinking: { body: {} },
    max: { body: {}, applied: 'thinking' },
  },
  'ollama.llama': cannotReason,
};

const REASONING_FIELDS = ['thinking', 'enable_thinking', 'reasoning_effort'];
const settings: Setting[] = [null, 'none', 'thinking', 'max'];

function reasoningFields(body: Record<string, unknown>): Fields {
  return Object.fromEntries(Object.entries(body).filter(([k]) => REASONING_FIELDS.includes(k)));
}

describe('buildRequestBody: task reasoning settings per shipped profile', () => {
  it('covers every shipped profile (a new profile needs a row here)', () => {
    expect(profiles.map((p) => p.id).sort()).toEqual(Object.keys(expected).sort());
  });

  for (const [id, row] of Object.entries(expected)) {
    it(`${id}: default / none / thinking / max`, () => {
      const profile = profiles.find((p) => p.id === id);
      if (!profile) throw new Error(`profile ${id} is not shipped`);
      for (const setting of settings) {
        const want = row[setting ?? 'default'];
        const body = buildRequestBody(profile, { messages: [{ role: 'user', content: 'hi' }], reasoning: setting });
        expect(reasoningFields(body), `${id} ${String(setting)}`).toEqual(want.body);
        if (setting !== null) expect(planReasoning(profile, setting).applied, `${id} ${setting} applied`).toBe(want.applied ?? setting);
      }
      // The UI's list of honoured settings is the same table.
      const honoured = (['none', 'thinking', 'max'] as const).filter((m) => (row[m].applied ?? m) === m);
      expect(reasoningModes(profile)).toEqual(profile.thinking_mode === 'none' ? [] : honoured);
    });
  }
});

describe('buildRequestBody: capability shapes beyond the shipped files', () => {
  const base = 'http://127.0.0.1:9/v1';
  const hi = { messages: [{ role: 'user' as const, content: 'hi' }] };

  it('an always-reasoning profile with an "off" effort level sends it for none (OpenAI `none`)', () => {
    const p = fakeProfile(base, {
      thinking_mode: 'always',
      reasoning_effort_levels: ['none', 'low', 'medium', 'high', 'xhigh'],
      reasoning_effort_for: { none: 'none', max: 'xhigh' },
    });
    expect(reasoningFields(buildRequestBody(p, { ...hi, reasoning: 'none' }))).toEqual({ reasoning_effort: 'none' });
    expect(reasoningFields(buildRequestBody(p, { ...hi, reasoning: 'max' }))).toEqual({ reasoning_effort: 'xhigh' });
    expect(reasoningModes(p)).toEqual(['none', 'thinking', 'max']);
  });

  it('the task setting wins over the lower-level thinking/reasoningEffort overrides', () => {
    const p = fakeProfile(base, { thinking_mode: 'toggle', reasoning_effort_levels: ['low', 'high', 'max'], reasoning_effort: 'high', reasoning_effort_for: { max: 'max' } });
    const body = buildRequestBody(p, { ...hi, thinking: true, reasoningEffort: 'low', reasoning: 'none' });
    expect(reasoningFields(body)).toEqual({ thinking: { type: 'disabled' } });
  });

  it('extra_body still has the last word', () => {
    const p = fakeProfile(base, { thinking_mode: 'toggle', extra_body: { thinking: { type: 'enabled', budget_tokens: 10 } } });
    expect(buildRequestBody(p, { ...hi, reasoning: 'none' }).thinking).toEqual({ type: 'enabled', budget_tokens: 10 });
  });
});
