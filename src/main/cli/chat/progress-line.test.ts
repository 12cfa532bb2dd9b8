// The chat's spinner line while a tool works: the step the tool reported, in the chat's language.
import { describe, expect, it } from 'vitest';
import { ProgressStep, type RunEvent } from '../../../shared/contract';
import { createTranslate } from './i18n';
import { PROGRESS_STEP_KEYS, progressLine } from './progress-line';
import { applyEvent, initialScreen, startRun } from './screen';

const progress = (body: Record<string, unknown>): RunEvent => ({ run_id: 'r1', task_id: 't1', seq: 1, at: 0, type: 'progress', ...body }) as RunEvent;

describe('the chat progress line', () => {
  it('words a reported step in Chinese, with its file and count', async () => {
    const zh = await createTranslate('zh-CN');
    const running = (event: RunEvent) => applyEvent(startRun(initialScreen, 't1', 'r1', 0), event).running?.progress;
    const ocr = running(progress({ step: 'ocr', file: '扫描.pdf', done: 1, total: 4 }));
    // A Chinese file name joins the words around it as any Chinese word does; a Latin one gets the gap.
    expect(ocr && progressLine(ocr, zh)).toBe('正在识别扫描.pdf 的扫描页 1/4');
    const latin = running(progress({ step: 'ocr', file: 'scan.pdf', done: 1, total: 4 }));
    expect(latin && progressLine(latin, zh)).toBe('正在识别 scan.pdf 的扫描页 1/4');
    const layout = running(progress({ step: 'layout_document', done: 0, total: null }));
    expect(layout && progressLine(layout, zh)).toBe('正在排版页面');
  });

  it('has a sentence for every step in both languages', async () => {
    const [en, zh] = [await createTranslate('en'), await createTranslate('zh-CN')];
    for (const step of ProgressStep.options) {
      const key = PROGRESS_STEP_KEYS[step];
      expect(en(key, { file: 'a.pdf' }), step).not.toBe(key);
      expect(zh(key, { file: 'a.pdf' }), step).toMatch(/[\u4e00-\u9fff]/u);
    }
  });
});
