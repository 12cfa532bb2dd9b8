import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Task } from '../../shared/contract';
import { buildChatRows, keepUnchangedRows, mergePendingApprovals, type ChatRow } from '../state/chat-rows';
import { useChat } from '../state/chat-store';
import { useApp } from '../state/app-store';
import { isModelSetupError } from '../../shared/errors';
import { isLiveRunActive } from '../state/live-run';
import { ChatHeader } from './ChatHeader';
import { Composer } from './Composer';
import { Icon } from './Icon';
import { MessageList } from './MessageList';
import { OutlinePanel } from './OutlinePanel';
import { ModelPicker } from './ModelPicker';
import { ErrorText } from './ErrorText';
import { plainT } from '../i18n/plain';

export function ChatView({ task }: { task: Task }) {
  const { t } = useTranslation();
  const chat = useChat();
  const { open } = chat;
  const setView = useApp((s) => s.setView);

  useEffect(() => {
    void open(task.id);
  }, [task.id, open]);

  const approvals = useMemo(() => mergePendingApprovals(chat.persistedApprovals, chat.live), [chat.persistedApprovals, chat.live]);
  // Unchanged rows stay the same objects across rebuilds (a prepended page, a streamed delta), so
  // the memoized row views re-render only the rows whose content changed.
  const shownRows = useRef<ChatRow[]>([]);
  const rows = useMemo(() => {
    const next = keepUnchangedRows(shownRows.current, buildChatRows(chat.messages, chat.runs, chat.live, approvals));
    shownRows.current = next;
    return next;
  }, [chat.messages, chat.runs, chat.live, approvals]);
  const running = isLiveRunActive(chat.live);
  // A stopped or failed run that cut its answer off can be continued too: the next turn finishes it.
  const lastMessage = chat.messages.at(-1);
  const cutOff = lastMessage?.role === 'assistant' && lastMessage.is_error;
  const interrupted = !running && (task.last_run?.status === 'interrupted' || cutOff);
  const ready = chat.taskId === task.id && !chat.loading;

  return (
    <main className="chat" data-testid="chat-view" data-task-id={task.id} data-running={running}>
      <ChatHeader task={task} />
      {ready && rows.length === 0 ? (
        <div className="chat-empty">
          <div className="chat-empty-title">{t('chat.emptyTitle')}</div>
          <div className="muted">{t(`chat.emptyHint.${task.mode}`)}</div>
        </div>
      ) : (
        <MessageList
          key={task.id}
          rows={rows}
          taskId={task.id}
          hasMore={chat.hasMore}
          loadingOlder={chat.loadingOlder}
          onLoadOlder={() => void chat.loadOlder()}
          followSignal={chat.followRequests}
        />
      )}
      {chat.error && (
        <div className="chat-error" role="alert" data-testid="chat-error">
          <Icon name="alert" size={14} />
          <span>
            <ErrorText error={chat.error} />
          </span>
          {isModelSetupError(chat.error) && (
            <button type="button" className="btn btn-small" onClick={() => setView('setup')} data-testid="chat-error-setup">
              {t('setup.open')}
            </button>
          )}
          <button type="button" className="icon-btn" onClick={chat.dismissError} aria-label={plainT('common.dismiss')}>
            <Icon name="close" size={12} />
          </button>
        </div>
      )}
      {interrupted && (
        <div className="chat-banner" data-testid="interrupted-banner">
          <span>{t(cutOff ? 'chat.cutOffBanner' : 'chat.interrupted')}</span>
          <button type="button" className="btn btn-primary btn-small" onClick={() => void chat.continueTask()} data-testid="continue-task">
            <Icon name="play" size={12} />
            {t('chat.continue')}
          </button>
        </div>
      )}
      <OutlinePanel taskId={task.id} />
      <Composer taskId={task.id} running={running} waitingForApproval={running && approvals.length > 0} onSend={chat.send} onCancel={() => void chat.cancel()} modelPicker={<ModelPicker task={task} />} />
    </main>
  );
}
