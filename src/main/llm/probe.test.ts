import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../testing/fake-openai/server';
import { fakeProfile } from '../../../testing/fake-openai/fake-profile';
import { buildHaystack, probeExitCode, probeProfile } from './probe';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

const twoCalls = { toolCalls: [{ name: 'get_time', arguments: '{"city":"Paris"}' }, { name: 'get_weather', arguments: '{"city":"Paris"}' }] };
const fast = { baseDelayMs: 5, idleTimeoutMs: 2000, outbound: null };

describe('probeProfile', () => {
  it('all declared capabilities observed: exit 0, and the requests carry the declared params', async () => {
    const profile = fakeProfile(fake.url, { parallel_tools: true, thinking_mode: 'toggle' });
    fake.script([{ text: 'pong' }, twoCalls, { reasoning: 'adding 17 and 25', text: '42' }, { text: '42' }, { reasoning: 'adding', text: '42' }]);
    const report = await probeProfile(profile, 'sk-test', fast);
    expect(report.error).toBeUndefined();
    expect(report.rows.map((r) => [r.check, r.ok])).toEqual([
      ['chat', true],
      ['parallel_tools', true],
      ['thinking', true],
      ['reasoning:none', true],
      ['reasoning:thinking', true],
      ['reasoning:max', true],
    ]);
    expect(report.rows.find((r) => r.check === 'reasoning:max')).toMatchObject({ declared: { kind: 'unsupported', runs_as: 'thinking' }, observed: { kind: 'not_sent' } });
    expect(fake.requests).toHaveLength(5);
    expect(probeExitCode(report)).toBe(0);
    const bodies = fake.requests.map((r) => r.body as Record<string, unknown>);
    expect(bodies[0]).toMatchObject({ thinking: { type: 'disabled' } });
    expect(bodies[1]).toMatchObject({ parallel_tool_calls: true });
    expect((bodies[1]?.tools as unknown[]).length).toBe(2);
    expect(bodies[2]).toMatchObject({ thinking: { type: 'enabled' } });
    expect(report.profile).toBe('fake.main');
    expect(report.rows[1]).toMatchObject({ declared: { kind: 'flag', value: true }, observed: { kind: 'tool_calls', count: 2 }, ok: true });
  });

  it('one tool call where parallel is declared, and a rejected reasoning_effort: exit 2', async () => {
    const profile = fakeProfile(fake.url, { parallel_tools: true, thinking_mode: 'always', reasoning_effort_levels: ['low', 'high'] });
    fake.script([
      { reasoning: 'hm', text: 'pong' },
      { toolCalls: [{ name: 'get_time', arguments: '{"city":"Paris"}' }] },
      { fault: 'status', status: 400, body: { error: { message: 'Unrecognized request argument: reasoning_effort' } } },
      { reasoning: 'hm', text: '42' },
    ]);
    const report = await probeProfile(profile, 'sk-test', fast);
    expect(report.error).toBeUndefined();
    const byCheck = Object.fromEntries(report.rows.map((r) => [r.check, r]));
    expect(byCheck.parallel_tools).toMatchObject({ declared: { kind: 'flag', value: true }, observed: { kind: 'tool_calls', count: 1 }, ok: false });
    expect(byCheck.thinking).toMatchObject({ ok: true, observed: { kind: 'accepted', reasoning: 'streamed' } });
    expect(byCheck.reasoning_effort?.ok).toBe(false);
    expect(byCheck.reasoning_effort?.declared).toEqual({ kind: 'levels', levels: ['low', 'high'] });
    const effort = byCheck.reasoning_effort?.observed;
    expect(effort?.kind === 'rejected' && effort.message).toContain('reasoning_effort');
    expect((fake.requests[2]?.body as Record<string, unknown>).reasoning_effort).toBe('low');
    expect(probeExitCode(report)).toBe(2);
  });

  it('reasoning from a profile declared without thinking is a mismatch', async () => {
    fake.script([{ reasoning: 'thinking anyway', text: 'pong' }, twoCalls]);
    const report = await probeProfile(fakeProfile(fake.url, { parallel_tools: true }), 'sk-test', fast);
    expect(report.rows.find((r) => r.check === 'thinking')).toMatchObject({ declared: { kind: 'thinking_mode', mode: 'none' }, observed: { kind: 'reasoning', streamed: true }, ok: false });
    expect(probeExitCode(report)).toBe(2);
  });

  it('a rejected key stops the probe: exit 3, no key in the report', async () => {
    fake.script([{ fault: 'status', status: 401 }]);
    const report = await probeProfile(fakeProfile(fake.url), 'sk-secret-key-9999', fast);
    expect(probeExitCode(report)).toBe(3);
    expect(report.error).toContain('rejected the API key (401)');
    expect(JSON.stringify(report)).not.toContain('sk-secret-key-9999');
    expect(fake.requests).toHaveLength(1);
    expect([report.error_code, report.error_name]).toEqual(['provider_error', 'ProviderKeyRejectedError']);
  });

  it('a provider that answers only after the deadline is given up on, not retried or waited for', async () => {
    // The 401 would come after 30 s; the report names the deadline instead, so nothing waited for it.
    fake.script([{ fault: 'status', status: 401, delayMs: 30_000 }, { fault: 'status', status: 401 }]);
    const report = await probeProfile(fakeProfile(fake.url), 'k', { ...fast, answerDeadlineMs: 150 });
    expect(probeExitCode(report)).toBe(3);
    expect([report.error_code, report.error_name]).toEqual(['provider_unreachable', 'ProviderTimeoutError']);
    expect(report.error).toContain('did not answer within 0.2 s');
    expect(fake.requests).toHaveLength(1);
  });

  it('the deadline bounds only the wait for the first answer: a slow stream after it still passes', async () => {
    fake.script([{ text: 'pong', chunkDelayMs: 60, chunkSize: 1 }, twoCalls]);
    const report = await probeProfile(fakeProfile(fake.url, { parallel_tools: true }), 'k', { ...fast, answerDeadlineMs: 150 });
    expect(report.rows[0]).toMatchObject({ check: 'chat', ok: true, observed: { kind: 'replied', text: 'pong' } });
  });

  it('an unreachable provider: exit 3', async () => {
    const report = await probeProfile(fakeProfile('http://127.0.0.1:1/v1'), 'k', { ...fast, maxRetries: 0 });
    expect(probeExitCode(report)).toBe(3);
    expect(report.error).toContain('http://127.0.0.1:1/v1');
  });

  it('the opt-in needle check hides a code in ~reliable_context/2 tokens of filler', async () => {
    const profile = fakeProfile(fake.url, { max_context: 8000, reliable_context: 4000 });
    fake.script([{ text: 'pong' }, { toolCalls: [{ name: 'get_time', arguments: '{}' }] }, { text: 'The code is FOLIO-424242.' }]);
    const found = await probeProfile(profile, 'k', { ...fast, needle: true, needleCode: 'FOLIO-424242' });
    expect(found.rows.find((r) => r.check === 'needle')).toMatchObject({ declared: { kind: 'recall', tokens: 2000 }, observed: { kind: 'found' }, ok: true });
    expect(probeExitCode(found)).toBe(0);
    const prompt = JSON.stringify((fake.requests[2]?.body as { messages: unknown }).messages);
    expect(prompt).toContain('FOLIO-424242');
    expect(prompt.length).toBeGreaterThan(7500);

    fake.reset();
    fake.script([{ text: 'pong' }, { toolCalls: [{ name: 'get_time', arguments: '{}' }] }, { text: 'I could not find one.' }]);
    const missed = await probeProfile(profile, 'k', { ...fast, needle: true, needleCode: 'FOLIO-111111' });
    expect(missed.rows.find((r) => r.check === 'needle')).toMatchObject({ observed: { kind: 'missed', reply: 'I could not find one.' }, ok: false });
    expect(probeExitCode(missed)).toBe(2);
  });

  it('checks each reasoning setting against the provider and reports a refused one per mode', async () => {
    const profile = fakeProfile(fake.url, {
      thinking_mode: 'toggle',
      reasoning_effort_levels: ['low', 'high', 'max'],
      reasoning_effort: 'high',
      reasoning_effort_for: { max: 'max' },
    });
    // This "provider" has no deepest mode: it refuses reasoning_effort=max like an unknown value.
    fake.rejectParams([{ param: 'reasoning_effort', value: 'max' }]);
    fake.script([{ text: 'pong' }, twoCalls, { reasoning: 'r', text: '42' }, { reasoning: 'r', text: 'pong' }, { text: '42' }, { reasoning: 'r', text: '42' }]);
    const report = await probeProfile(profile, 'k', fast);
    expect(report.error).toBeUndefined();
    const byCheck = Object.fromEntries(report.rows.map((r) => [r.check, r]));
    const sends = (fields: string) => ({ kind: 'sends', fields });
    expect(byCheck['reasoning:none']).toMatchObject({ declared: sends('thinking={"type":"disabled"}'), observed: { kind: 'accepted', reasoning: 'none' }, ok: true });
    expect(byCheck['reasoning:thinking']).toMatchObject({ declared: sends('thinking={"type":"enabled"} reasoning_effort=high'), ok: true });
    expect(byCheck['reasoning:max']).toMatchObject({ declared: sends('thinking={"type":"enabled"} reasoning_effort=max'), ok: false });
    const max = byCheck['reasoning:max']?.observed;
    expect(max?.kind === 'rejected' && max.message).toContain("Invalid value for 'reasoning_effort'");
    expect(probeExitCode(report)).toBe(2);
  });

  it("'none' that still streams reasoning is a mismatch; a profile that cannot reason sends no reasoning checks", async () => {
    const toggle = fakeProfile(fake.url, { thinking_mode: 'toggle', thinking_param: 'enable_thinking' });
    fake.script([{ text: 'pong' }, { toolCalls: [{ name: 'get_time', arguments: '{}' }] }, { reasoning: 'r', text: '42' }, { reasoning: 'still thinking', text: '42' }, { reasoning: 'r', text: '42' }]);
    const leaky = await probeProfile(toggle, 'k', fast);
    expect(leaky.rows.find((r) => r.check === 'reasoning:none')).toMatchObject({ declared: { kind: 'sends', fields: 'enable_thinking=false' }, observed: { kind: 'accepted', reasoning: 'streamed_anyway' }, ok: false });
    expect((fake.requests[3]?.body as Record<string, unknown>).enable_thinking).toBe(false);

    fake.reset();
    fake.script([{ text: 'pong' }, { toolCalls: [{ name: 'get_time', arguments: '{}' }] }]);
    const plain = await probeProfile(fakeProfile(fake.url), 'k', fast);
    const dropped = { declared: { kind: 'unsupported', runs_as: 'none' }, observed: { kind: 'not_sent' } };
    expect(plain.rows.filter((r) => r.check.startsWith('reasoning:')).map((r) => [r.check, { declared: r.declared, observed: r.observed }])).toEqual([
      ['reasoning:none', dropped],
      ['reasoning:thinking', dropped],
      ['reasoning:max', dropped],
    ]);
    expect(fake.requests).toHaveLength(2);
  });

  it('buildHaystack places the code inside filler of the requested size', () => {
    const text = buildHaystack(1000, 'FOLIO-1');
    expect(text.length).toBeGreaterThanOrEqual(4000);
    const at = text.indexOf('FOLIO-1');
    expect(at).toBeGreaterThan(text.length * 0.4);
    expect(at).toBeLessThan(text.length * 0.8);
  });
});
