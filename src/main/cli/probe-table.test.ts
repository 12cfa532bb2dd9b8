import { describe, expect, it } from 'vitest';
import type { ProbeReport } from '../../shared/contract';
import { latinSentences } from '../../shared/latin-text.test-support';
import { cliTranslate } from './cli-messages';
import { formatProbeTable } from './probe-table';

const report: Omit<ProbeReport, 'exit_code'> = {
  profile: 'fake.main',
  rows: [
    { check: 'chat', declared: { kind: 'reply' }, observed: { kind: 'replied', text: 'pong' }, ok: true },
    { check: 'parallel_tools', declared: { kind: 'flag', value: true }, observed: { kind: 'tool_calls', count: 1 }, ok: false },
    { check: 'thinking', declared: { kind: 'thinking_mode', mode: 'toggle' }, observed: { kind: 'accepted', reasoning: 'streamed', leaked: true }, ok: false },
    { check: 'reasoning_effort', declared: { kind: 'levels', levels: ['low', 'high'] }, observed: { kind: 'rejected', message: 'Unrecognized request argument supplied: reasoning_effort' }, ok: false },
    { check: 'reasoning:none', declared: { kind: 'sends', fields: 'thinking={"type":"disabled"}' }, observed: { kind: 'accepted', reasoning: 'none' }, ok: true },
    { check: 'reasoning:max', declared: { kind: 'unsupported', runs_as: 'thinking' }, observed: { kind: 'not_sent' }, ok: true },
    { check: 'needle', declared: { kind: 'recall', tokens: 2000 }, observed: { kind: 'found' }, ok: true },
  ],
};

describe('folio probe’s table', () => {
  it('in a Chinese terminal says every check, fact and verdict in Chinese, in aligned columns', async () => {
    const t = await cliTranslate({ LC_ALL: 'zh_CN.UTF-8' });
    const table = formatProbeTable({ ...report, error: 'Provider rejected the API key (401)', error_code: 'provider_error', error_name: 'ProviderKeyRejectedError' }, t, false);
    const lines = table.split('\n');
    expect(lines[0]).toBe('探测 fake.main');
    expect(lines[1]).toMatch(/^检查项\s+声明\s+实测\s+结果$/u);
    expect(table).toMatch(/并行调用工具\s+是\s+否（每次回复 1 个调用）\s+不符/u);
    expect(table).toContain('已接受，输出了推理过程；关闭思考时也输出了推理过程');
    expect(table).toMatch(/推理强度\s+low\/high\s+服务商拒绝了这个请求\s+不符/u);
    expect(table).toMatch(/推理：深度思考（max）\s+不支持，按“思考”运行\s+未发送\s+一致/u);
    expect(table).toContain('约 2000 词元处召回');
    expect(lines.at(-1)).toMatch(/^错误：模型服务拒绝了这个 API 密钥/u);
    expect(latinSentences(table)).toEqual([]);
    // Each verdict starts in one column: the Chinese cells are counted two wide.
    const verdict = (line: string) => [...line.slice(0, line.search(/(一致|不符)$/u))].reduce((n, c) => n + (/[\u3000-\u9fff\uff00-\uffef]/u.test(c) ? 2 : 1), 0);
    expect(new Set(lines.slice(2, 9).map(verdict)).size).toBe(1);
  });

  it('in English keeps the provider’s words and the core’s error', async () => {
    const t = await cliTranslate({ LC_ALL: 'en_US.UTF-8' });
    const table = formatProbeTable({ ...report, error: 'Provider rejected the API key (401)', error_code: 'provider_error' }, t, true);
    expect(table.split('\n')[0]).toBe('Probe fake.main');
    expect(table).toMatch(/parallel tool calls\s+yes\s+no \(1 call per response\)\s+mismatch/u);
    expect(table).toContain('rejected: Unrecognized request argument supplied: reasoning_effort');
    expect(table).toContain('Error: Provider rejected the API key (401)');
  });
});
