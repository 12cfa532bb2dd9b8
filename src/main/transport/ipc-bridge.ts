// Everything the desktop IPC binding does, minus Electron: sender checks, call dispatch, and
// per-window run-event subscriptions. src/main/electron/ipc.ts only wires these to ipcMain.
import { z } from 'zod';
import { Id } from '../../shared/contract/entities';
import { type RunEvent } from '../../shared/contract/events';
import { ValidationError, formatZodError, toErrorShape } from '../../shared/errors';
import type { CallResult } from '../../shared/transport';
import type { FolioCore } from '../service/ports';
import { ForbiddenError, dispatchCall } from './dispatch';

export interface IpcBridgeOptions {
  /** Whether a frame URL is the app's own page (its file:// entry or the dev server's origin). */
  isTrustedSender(frameUrl: string): boolean;
  onInternalError?: (method: string, error: unknown) => void;
}

export interface IpcHandlers {
  handleCall(senderFrameUrl: string | null | undefined, method: unknown, input: unknown): Promise<CallResult>;
  /**
   * Starts (or restarts, replaying from `afterSeq`) delivery of a run's events to one window.
   * Subscriptions are reference-counted per window and run, because two views of the same run
   * share one IPC channel; the preload drops the replayed duplicates by seq.
   */
  handleSubscribe(
    senderId: number,
    senderFrameUrl: string | null | undefined,
    taskId: unknown,
    runId: unknown,
    afterSeq: unknown,
    send: (event: RunEvent) => void,
  ): Promise<CallResult>;
  handleUnsubscribe(senderId: number, taskId: unknown, runId: unknown): void;
  /** Forgets every subscription of a window (closed, crashed or navigated away). */
  dropSender(senderId: number): void;
  /** Open subscriptions, for diagnostics and tests. */
  subscriptionCount(senderId?: number): number;
}

/** A window has no reason to follow more runs than this at once; the cap bounds a leak. */
export const MAX_SUBSCRIPTIONS_PER_SENDER = 200;

const SubscribeArgs = z.tuple([Id, Id, z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional()]);
const UnsubscribeArgs = z.tuple([Id, Id]);

interface Subscription {
  refs: number;
  unsubscribe: () => void;
}

export function createIpcHandlers(core: FolioCore, opts: IpcBridgeOptions): IpcHandlers {
  const bySender = new Map<number, Map<string, Subscription>>();
  const trusted = (url: string | null | undefined) => typeof url === 'string' && url !== '' && opts.isTrustedSender(url);
  const untrusted = (): CallResult => ({ ok: false, error: toErrorShape(new ForbiddenError('Untrusted sender')) });

  function forget(senderId: number, key: string): void {
    const subs = bySender.get(senderId);
    const sub = subs?.get(key);
    if (!subs || !sub) return;
    subs.delete(key);
    if (subs.size === 0) bySender.delete(senderId);
    sub.unsubscribe();
  }

  return {
    async handleCall(senderFrameUrl, method, input) {
      if (!trusted(senderFrameUrl)) return untrusted();
      return dispatchCall(core, method, input, { transport: 'ipc', onInternalError: opts.onInternalError });
    },

    async handleSubscribe(senderId, senderFrameUrl, taskId, runId, afterSeq, send) {
      if (!trusted(senderFrameUrl)) return untrusted();
      try {
        const args = SubscribeArgs.safeParse([taskId, runId, afterSeq ?? undefined]);
        if (!args.success) throw new ValidationError(formatZodError(args.error));
        const [task, run, after] = args.data;
        const key = `${task}/${run}`;
        const before = bySender.get(senderId);
        if (!before?.has(key) && (before?.size ?? 0) >= MAX_SUBSCRIPTIONS_PER_SENDER) {
          throw new ValidationError(`At most ${MAX_SUBSCRIPTIONS_PER_SENDER} run subscriptions per window`);
        }
        // Subscribe first: if the hub throws (unknown run), the old subscription stays intact.
        let finished = false;
        const unsubscribe = await core.events.subscribe(
          task,
          run,
          (event) => {
            send(event);
            if (event.type === 'run_finished') finished = true;
          },
          after,
        );
        // Read after the await: another subscription of this window and run may have come meanwhile.
        const subs = bySender.get(senderId) ?? new Map<string, Subscription>();
        const existing = subs.get(key);
        existing?.unsubscribe();
        if (finished && !existing) {
          unsubscribe();
          return { ok: true, value: null };
        }
        subs.set(key, { refs: (existing?.refs ?? 0) + 1, unsubscribe });
        bySender.set(senderId, subs);
        return { ok: true, value: null };
      } catch (error) {
        return { ok: false, error: toErrorShape(error) };
      }
    },

    handleUnsubscribe(senderId, taskId, runId) {
      const args = UnsubscribeArgs.safeParse([taskId, runId]);
      if (!args.success) return;
      const key = `${args.data[0]}/${args.data[1]}`;
      const sub = bySender.get(senderId)?.get(key);
      if (!sub) return;
      sub.refs -= 1;
      if (sub.refs <= 0) forget(senderId, key);
    },

    dropSender(senderId) {
      const subs = bySender.get(senderId);
      if (!subs) return;
      for (const key of [...subs.keys()]) forget(senderId, key);
    },

    subscriptionCount(senderId) {
      if (senderId !== undefined) return bySender.get(senderId)?.size ?? 0;
      let count = 0;
      for (const subs of bySender.values()) count += subs.size;
      return count;
    },
  };
}
