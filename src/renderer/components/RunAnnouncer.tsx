import { useTranslation } from 'react-i18next';
import { isLiveRunActive } from '../state/live-run';
import { useChat } from '../state/chat-store';

/**
 * What a screen reader hears about the open task's run: started, waiting for an approval, finished
 * or failed. Polite, and only the state (never the streamed text, which would talk over the person).
 */
export function RunAnnouncer() {
  const { t } = useTranslation();
  const live = useChat((s) => s.live);
  let message = '';
  if (live && live.approvals.length > 0) message = t('layout.live.approval', { count: live.approvals.length });
  else if (isLiveRunActive(live)) message = t('layout.live.running');
  else if (live?.finished) message = t(`layout.live.finished.${live.finished.reason}`);
  return (
    <div className="visually-hidden" role="status" aria-live="polite" data-testid="run-announcer">
      {message}
    </div>
  );
}
