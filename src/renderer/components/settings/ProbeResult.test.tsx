// A probe's findings in Settings › Models, said in the UI language from the facts the core found.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ProbeReport } from '../../../shared/contract';
import { latinSentences } from '../../../shared/latin-text.test-support';
import { useUiLanguage } from '../../i18n/ui-language.test-support';
import { ProbeResult } from './ProbeResult';

const report: ProbeReport = {
  profile: 'deepseek.flash',
  rows: [
    { check: 'chat', declared: { kind: 'reply' }, observed: { kind: 'replied', text: 'pong' }, ok: true },
    { check: 'parallel_tools', declared: { kind: 'flag', value: true }, observed: { kind: 'tool_calls', count: 0 }, ok: false },
    { check: 'thinking', declared: { kind: 'thinking_mode', mode: 'always' }, observed: { kind: 'accepted', reasoning: 'not_streamed' }, ok: true },
    { check: 'reasoning_effort', declared: { kind: 'levels', levels: ['low', 'high'] }, observed: { kind: 'rejected', message: 'The provider refused the request (400): Unrecognized request argument supplied' }, ok: false },
    { check: 'reasoning:none', declared: { kind: 'provider_default' }, observed: { kind: 'accepted', reasoning: 'streamed_anyway' }, ok: false },
    { check: 'reasoning:max', declared: { kind: 'unsupported', runs_as: 'thinking' }, observed: { kind: 'not_sent' }, ok: true },
  ],
  exit_code: 2,
};

describe('a probe’s findings (zh-CN)', () => {
  useUiLanguage('zh-CN');

  it('names every check, fact and verdict in Chinese, with no English sentence', () => {
    const html = renderToStaticMarkup(<ProbeResult state={{ status: 'done', report }} />);
    for (const said of ['检查项', '并行调用工具', '否（没有调用工具）', '始终思考', '已接受，未输出推理过程', '服务商拒绝了这个请求', '推理：关闭', '服务商默认', '已接受，但仍输出了推理过程', '不支持，按“思考”运行', '不符', '一致']) {
      expect(html).toContain(said);
    }
    expect(latinSentences(html)).toEqual([]);
  });
});

describe('a probe’s findings (en)', () => {
  useUiLanguage('en');

  it('keeps the provider’s own words for a refused request', () => {
    const html = renderToStaticMarkup(<ProbeResult state={{ status: 'done', report }} />);
    expect(html).toContain('rejected: The provider refused the request (400)');
    expect(html).toContain('parallel tool calls');
  });
});
