// The run footer rendered to HTML: who answered sits beside the run's status, ahead of the measured
// figures, so blank or growing figures never leave the model's name stranded mid-row.
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import type { Run } from '../../shared/contract';
import { useApp } from '../state/app-store';
import { createLiveRun } from '../state/live-run';
import { LiveRunFooter, RunFooter } from './RunFooter';
import { latinSentences } from '../../shared/latin-text.test-support';

/** The footer's direct children, in order, by their class (or "figure" for a plain span). */
function childOrder(html: string): string[] {
  const inner = html.replace(/^<div[^>]*>/u, '').replace(/<\/div>$/u, '');
  return [...inner.matchAll(/<span(?: class="([^"]*)")?[^>]*>/gu)].map((m) => m[1] ?? 'figure');
}

/** The footers in `language`, with no model profiles known (the model shows by its id's own name). */
function footersIn(language: 'en' | 'zh-CN' = 'en'): void {
  useUiLanguage(language);
  beforeAll(() => {
    useApp.setState({ profiles: [] });
  });
}

/** The status first, then who answered, then the figures. */
function expectModelAfterStatus(html: string): void {
  const order = childOrder(html);
  expect(order[0]).toMatch(/^status-pill/u);
  expect(order[1]).toBe('run-model');
  expect(order.slice(2)).not.toContain('run-model');
  expect(order.length).toBeGreaterThan(3);
}

describe('RunFooter', () => {
  footersIn();

  const run: Run = {
    id: 'r1',
    task_id: 't1',
    status: 'done',
    model: 'local-fake.fake-model',
    started_at: 1_000,
    finished_at: 4_000,
    error: null,
    prompt_tokens: 120,
    completion_tokens: 30,
    cost: 0,
    tool_calls: {},
  };

  it('puts the model name right after the status, before the figures', () => {
    expectModelAfterStatus(renderToStaticMarkup(<RunFooter run={run} />));
  });

  it('shows no token counts or cost while the first tokens stream, and shows them once counted', () => {
    const streaming = { ...createLiveRun('t1', 'r1'), model: 'local-fake.fake-model', startedAt: 1_000, items: [{ kind: 'text' as const, text: 'Urban heat' }] };
    const before = renderToStaticMarkup(<LiveRunFooter live={streaming} />);
    expect(before).not.toMatch(/\bin · .*\bout\b/u);
    expect(before).not.toContain('No price set');
    const counted = renderToStaticMarkup(<LiveRunFooter live={{ ...streaming, usage: { promptTokens: 120, completionTokens: 30, cost: 0 } }} />);
    expect(counted).toContain('120 in · 30 out');
  });

  it('does the same while the run streams and once it has finished', () => {
    const live = { ...createLiveRun('t1', 'r1'), model: 'local-fake.fake-model', startedAt: 1_000, usage: { promptTokens: 5, completionTokens: 2, cost: 0 }, finished: { reason: 'done' as const, durationMs: 3_000 } };
    expectModelAfterStatus(renderToStaticMarkup(<LiveRunFooter live={live} />));
  });
});

describe('a failed run in Chinese', () => {
  footersIn('zh-CN');

  const failed: Run = {
    id: 'r2',
    task_id: 't1',
    status: 'failed',
    model: 'deepseek.chat',
    started_at: 1_000,
    finished_at: 1_200,
    error: 'The provider rejected the API key (401) for profile deepseek.chat',
    error_code: 'provider_error',
    error_name: 'ProviderKeyRejectedError',
    prompt_tokens: 0,
    completion_tokens: 0,
    cost: 0,
    tool_calls: {},
  };

  it('says in Chinese that the key was refused; the server words are not shown, only offered to copy', () => {
    const html = renderToStaticMarkup(<RunFooter run={failed} />);
    expect(html).toContain('模型服务拒绝了这个API密钥');
    expect(latinSentences(html)).toEqual([]);
    expect(html).toContain('data-testid="copy-original"');
  });

  it('shows no English for an untyped message (a run from before codes were stored), only the copy button', () => {
    const { error_code: _code, error_name: _name, ...old } = failed;
    const html = renderToStaticMarkup(<RunFooter run={old} />);
    expect(html).not.toContain('模型服务拒绝了这个API密钥');
    expect(latinSentences(html)).toEqual([]);
    expect(html).toContain('data-testid="copy-original"');
  });
});
