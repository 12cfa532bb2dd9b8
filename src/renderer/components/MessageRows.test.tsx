// The live run's progress line, rendered to HTML: the tools report a step, and the person reads it
// in the UI language, never the words a tool would write for a log.
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import { ProgressStep, systemNoticeContent, type Message, type RunEvent, type RunEventBody } from '../../shared/contract';
import { applyLanguageSetting, i18n } from '../i18n';
import en from '../i18n/locales/en.json';
import zhCN from '../i18n/locales/zh-CN.json';
import { useApp } from '../state/app-store';
import { applyRunEvent, createLiveRun } from '../state/live-run';
import { PROGRESS_STEP_KEYS, progressLabel } from '../lib/progress-label';
import { ChatRowView } from './MessageRows';

let seq = 0;
function ev(body: RunEventBody): RunEvent {
  seq++;
  return { run_id: 'r1', task_id: 't1', at: 1_700_000_000_000 + seq, seq, ...body };
}

function progressLine(...events: RunEventBody[]): string {
  const live = events.map(ev).reduce(applyRunEvent, createLiveRun('t1', 'r1'));
  const html = renderToStaticMarkup(<ChatRowView row={{ key: 'live', kind: 'live', live }} taskId="t1" />);
  const line = /<div class="progress" data-testid="run-progress">(.*?)<\/div>/u.exec(html)?.[1];
  return (line ?? '').replace(/<[^>]+>/gu, ' ').replace(/\s+/gu, ' ').trim();
}

function leaf(bundle: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], bundle);
}

describe('a running tool’s progress line', () => {
  useUiLanguage();
  beforeAll(() => {
    useApp.setState({ profiles: [] });
  });

  it('reads in Chinese on the Chinese screen, with the file it works on and the count', async () => {
    await applyLanguageSetting('zh-CN');
    const call: RunEventBody = { type: 'tool_call', call_id: 'c1', name: 'render_deck', arguments: '{}', kind: 'edit' };
    expect(progressLine(call, { type: 'progress', step: 'render_deck', done: 2, total: 6 })).toBe('正在渲染幻灯片… 2 / 6');
    expect(progressLine(call, { type: 'progress', step: 'check_slides', done: 1, total: 6 })).toBe('正在检查渲染结果… 1 / 6');
    expect(progressLine({ type: 'progress', step: 'extract_text', file: '报告.pdf', done: 3, total: null })).toBe('正在提取报告.pdf的文字…');
    expect(progressLine({ type: 'progress', step: 'start_mcp_servers', done: 0, total: 2 })).not.toMatch(/starting/iu);
  });

  it('reads in English on the English screen', async () => {
    await applyLanguageSetting('en');
    expect(progressLine({ type: 'progress', step: 'ocr', file: 'scan.pdf', done: 1, total: 4 })).toBe('Recognising the scanned pages of scan.pdf… 1 / 4');
  });

  it('every step has an English and a Chinese sentence, and the steps that name a file show it', async () => {
    for (const step of ProgressStep.options) {
      const key = PROGRESS_STEP_KEYS[step];
      const english = leaf(en, key);
      const chinese = leaf(zhCN, key);
      expect(typeof english, `${key} in en.json`).toBe('string');
      expect(chinese, `${key} in zh-CN.json`).toMatch(/[\u4e00-\u9fff]/u);
      expect((chinese as string).includes('{{file}}'), step).toBe((english as string).includes('{{file}}'));
    }
    await applyLanguageSetting('zh-CN');
    for (const step of ProgressStep.options) {
      const text = progressLabel({ step, file: 'x.pdf' }, i18n.t);
      expect(text, step).not.toMatch(/[A-Za-z]{4,}/u);
    }
  });
});

describe('a service notice in the chat', () => {
  const purgeAt = Date.UTC(2026, 11, 24, 12);
  const message = (content: string): Message => ({
    id: 'm1', task_id: 't1', run_id: null, seq: 1, role: 'system', content, reasoning: null, tool_calls: null, tool_call_id: null, is_error: false, name: null, created_at: 0,
  });
  const shown = (content: string) =>
    renderToStaticMarkup(<ChatRowView row={{ key: 'm1', kind: 'system', message: message(content) }} taskId="t1" />).replace(/<[^>]+>/gu, '');
  const archived = systemNoticeContent({ notice: 'task_archived', idle_days: 30, purge_at: purgeAt });
  const purged = systemNoticeContent({ notice: 'task_files_purged', archived_at: purgeAt });

  useUiLanguage();

  it('words an archived task’s notice in Chinese on the Chinese screen, with the date in Chinese', async () => {
    await applyLanguageSetting('zh-CN');
    expect(shown(archived)).toBe('已归档：此任务已30天没有活动。如果在2026年12月24日之前没有继续此任务，它的文件（你上传的文件和Folio写的文件）将被删除，对话记录会保留。');
    expect(shown(purged)).toMatch(/^文件已删除：此任务于2026年12月24日归档后/u);
    expect(shown(systemNoticeContent({ notice: 'task_archived', idle_days: 30, purge_at: null }))).toBe('已归档：此任务已30天没有活动，文件仍保留。');
    expect(shown(archived)).not.toMatch(/notice|task_|Archived/u);
  });

  it('words it in English on the English screen', async () => {
    await applyLanguageSetting('en');
    expect(shown(archived)).toBe(
      'Archived: this task had no activity for 30 days. Its files (your uploads and what Folio wrote) will be removed on Dec 24, 2026 unless you continue the task before then; the conversation is kept.',
    );
    expect(shown(purged)).toMatch(/^Files removed: this task was archived on Dec 24, 2026 and not continued/u);
    expect(shown(archived)).not.toMatch(/已归档/u);
  });

  it('shows an older note stored as text as written', async () => {
    await applyLanguageSetting('zh-CN');
    const old = 'Archived: this task had no activity for 30 days. Its files are kept.\n已归档:此任务已 30 天没有活动,文件仍保留。';
    expect(shown(old)).toBe(old);
    expect(shown('{not a notice}')).toBe('{not a notice}');
  });
});
