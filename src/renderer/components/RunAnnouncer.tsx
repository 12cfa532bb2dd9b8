import { isLiveRunActive, type LiveRun } from '../state/live-run';
import { useChat } from '../state/chat-store';
import { plainT, usePlainT } from '../i18n/plain';

/** What the announcer says about a run: waiting for approvals, working, or how it ended (nothing without a run). */
export function runAnnouncement(live: LiveRun | null): string {
  // One approval is "your approval" in every language (Chinese has no singular form to pick it by count).
  if (live?.approvals.length === 1) return plainT('layout.live.approval');
  if (live && live.approvals.length > 1) return plainT('layout.live.approvals', { count: live.approvals.length });
  if (isLiveRunActive(live)) return plainT('layout.live.running');
  if (live?.finished) return plainT(`layout.live.finished.${live.finished.reason}`);
  return '';
}

/**
 * What a screen reader hears about the open task's run: started, waiting for an approval, finished
 * or failed. Polite, and only the state (never the streamed text, which would talk over the person).
 */
export function RunAnnouncer() {
  // Re-renders when the language changes.
  usePlainT();
  const live = useChat((s) => s.live);
  return (
    <div className="visually-hidden" role="status" aria-live="polite" data-testid="run-announcer">
      {runAnnouncement(live)}
    </div>
  );
}
