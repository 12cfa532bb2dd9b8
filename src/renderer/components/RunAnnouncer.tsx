import { isLiveRunActive } from '../state/live-run';
import { useChat } from '../state/chat-store';
import { usePlainT } from '../i18n/plain';

/**
 * What a screen reader hears about the open task's run: started, waiting for an approval, finished
 * or failed. Polite, and only the state (never the streamed text, which would talk over the person).
 */
export function RunAnnouncer() {
  const plainT = usePlainT();
  const live = useChat((s) => s.live);
  let message = '';
  if (live && live.approvals.length > 0) message = plainT('layout.live.approval', { count: live.approvals.length });
  else if (isLiveRunActive(live)) message = plainT('layout.live.running');
  else if (live?.finished) message = plainT(`layout.live.finished.${live.finished.reason}`);
  return (
    <div className="visually-hidden" role="status" aria-live="polite" data-testid="run-announcer">
      {message}
    </div>
  );
}
