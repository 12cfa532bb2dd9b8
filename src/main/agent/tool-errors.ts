// What a failed or cancelled tool call tells the model: a typed error's own message, paths
// relative to the task, and a run that moves on when a cancelled tool never settles.
import type { ToolFailure } from '../../shared/contract/tool-calls';
import { FolioError } from '../../shared/errors';
import { ToolError } from '../tools/types';

/** How long a cancelled tool may take to stop before the run stops waiting for it. */
const CANCEL_GRACE_MS = 2000;

/**
 * A tool stuck in something that ignores the signal (a file operation blocked in the thread pool)
 * must not keep its run "running": after a cancel it gets a short grace, then the run moves on.
 */
export function untilCancelled<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      timer = setTimeout(() => reject(new FolioError('cancelled', 'Cancelled while running.')), CANCEL_GRACE_MS);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      signal.removeEventListener('abort', onAbort);
      clearTimeout(timer);
    });
  });
}

/** Errors name files relative to the task: the model never learns where the data folder is. */
export function taskRelative(message: string, ctx: { root: string; taskRoot?: string }): string {
  let out = message;
  for (const root of new Set([ctx.root, ctx.taskRoot].filter((r): r is string => typeof r === 'string' && r.length > 1).sort((a, b) => b.length - a.length))) {
    out = out.split(`${root}/`).join('').split(root).join('.');
  }
  return out;
}

export function errorText(err: unknown): string {
  if (err instanceof ToolError || err instanceof FolioError) return err.message;
  if (err instanceof Error) return `Tool failed: ${err.message}`;
  return 'Tool failed.';
}

/**
 * What a person's screen says about a failed call, by the class of what was thrown: a tool's typed
 * error names its own kind; Folio's shared errors map by their code; anything else is a plain failure.
 * A path is named relative to the task, as the model named it.
 */
export function failureOf(err: unknown, ctx: { root: string; taskRoot?: string }): ToolFailure {
  if (err instanceof ToolError) return err.failure.path === undefined ? err.failure : { ...err.failure, path: taskRelative(err.failure.path, ctx) };
  if (err instanceof FolioError) {
    switch (err.code) {
      case 'path_escape':
        return { kind: 'outside_task' };
      case 'not_found':
        return { kind: 'not_found' };
      case 'forbidden':
      case 'workspace_refused':
        return { kind: 'not_allowed' };
      case 'payload_too_large':
        return { kind: 'too_large' };
      case 'invalid_input':
        return { kind: 'invalid_arguments' };
      case 'cancelled':
        return { kind: 'cancelled' };
      default:
        return { kind: 'failed' };
    }
  }
  return { kind: 'failed' };
}
