// A running tool's progress and its nested work (a skill's sub-agent) as run events, yielded by
// the loop while the tool works.
import type { ProgressOf, RunEventBody } from '../../shared/contract';

export type ProgressReport = (of: ProgressOf, done: number, total: number | null) => void;
export type EmitNested = (event: RunEventBody) => void;

/**
 * Runs `work`, yielding the progress it reports as `progress` events while it runs. Reports that
 * arrive faster than they are consumed are coalesced per step and file: only the latest count matters.
 * Events of nested work (a skill's sub-agent) are passed on whole and in order, never coalesced.
 */
export async function* withProgress<T>(work: (report: ProgressReport, emit: EmitNested) => Promise<T>): AsyncGenerator<RunEventBody, T> {
  const queue: RunEventBody[] = [];
  let wake: (() => void) | null = null;
  let settled = false;
  const emit: EmitNested = (event) => {
    if (settled) return;
    queue.push(event);
    wake?.();
  };
  const report: ProgressReport = ({ step, file }, done, total) => {
    if (settled) return;
    const index = queue.findIndex((e) => e.type === 'progress' && e.parent_call_id === undefined && e.step === step && e.file === file);
    const event = { type: 'progress' as const, step, ...(file === undefined ? {} : { file }), done, total };
    if (index >= 0) queue[index] = event;
    else queue.push(event);
    wake?.();
  };
  const outcome = work(report, emit).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  void outcome.finally(() => {
    settled = true;
    wake?.();
  });
  while (!settled || queue.length > 0) {
    const next = queue.shift();
    if (next) {
      yield next;
      continue;
    }
    await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
  }
  const result = await outcome;
  if (!result.ok) throw result.error;
  return result.value;
}
