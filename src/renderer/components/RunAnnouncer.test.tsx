// What the run announcer's live region says as a run's events arrive: the screen reader hears the
// run start, a question waiting for the person, and the end, in the UI language.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/contract';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import { applyRunEvent, createLiveRun, type LiveRun } from '../state/live-run';
import { RunAnnouncer, runAnnouncement } from './RunAnnouncer';

const at = { run_id: 'r1', task_id: 't1' } as const;
let seq = 0;
const event = (e: Record<string, unknown>): RunEvent => ({ ...at, seq: ++seq, at: 1_000 + seq, ...e }) as RunEvent;

const announced = (live: LiveRun | null): string => runAnnouncement(live);

/** What the region says after each step of a run that asks for one approval and then finishes as `end`. */
function runAnnouncements(end: 'done' | 'error' | 'cancelled'): string[] {
  let live = createLiveRun('t1', 'r1');
  const said = [announced(null)];
  live = applyRunEvent(live, event({ type: 'run_started', model: 'fake.chat', resumed: false }));
  said.push(announced(live));
  live = applyRunEvent(live, event({ type: 'text_delta', delta: 'Looking at the files.' }));
  said.push(announced(live));
  const call = { call_id: 'c1', name: 'shell', arguments: '{"command":"ls"}', kind: 'execute' };
  live = applyRunEvent(live, event({ type: 'tool_call', ...call }));
  live = applyRunEvent(live, event({ type: 'approval_required', ...call, risk: 'standard', detail: null, reasons: [] }));
  said.push(announced(live));
  live = applyRunEvent(live, event({ type: 'approval_resolved', call_id: 'c1', decision: 'allow_once' }));
  said.push(announced(live));
  live = applyRunEvent(live, event({ type: 'run_finished', reason: end, duration_ms: 2_000 }));
  said.push(announced(live));
  return said;
}

describe('the run announcer (en)', () => {
  useUiLanguage('en');

  it('is a polite live region, empty while no run is open', () => {
    expect(renderToStaticMarkup(<RunAnnouncer />)).toBe('<div class="visually-hidden" role="status" aria-live="polite" data-testid="run-announcer"></div>');
  });

  it('says the run started, that it waits for an approval, that it goes on, and that it finished', () => {
    expect(runAnnouncements('done')).toEqual(['', 'Folio is working', 'Folio is working', 'Folio is waiting for your approval', 'Folio is working', 'Folio has finished']);
  });

  it('says how many approvals wait when there are several', () => {
    let live = applyRunEvent(createLiveRun('t1', 'r1'), event({ type: 'run_started', model: null, resumed: false }));
    for (const id of ['c1', 'c2']) live = applyRunEvent(live, event({ type: 'approval_required', call_id: id, name: 'write', arguments: '{}', kind: 'edit', risk: 'standard', detail: null, reasons: [] }));
    expect(announced(live)).toBe('Folio is waiting for 2 approvals');
  });

  it('says a failed or stopped run ended so, not that it finished', () => {
    expect(runAnnouncements('error').at(-1)).toBe('The run failed');
    expect(runAnnouncements('cancelled').at(-1)).toBe('The run was stopped');
  });
});

describe('the run announcer (zh-CN)', () => {
  useUiLanguage('zh-CN');

  // Read out, not drawn: the gap between Chinese and "Folio" is typed in.
  it('speaks Chinese on a Chinese screen', () => {
    expect(runAnnouncements('done')).toEqual(['', 'Folio 正在工作', 'Folio 正在工作', 'Folio 正在等待你的批准', 'Folio 正在工作', 'Folio 已完成']);
  });
});
