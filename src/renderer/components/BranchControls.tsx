// Branch controls on chat messages: the "< 2/3 >" switcher where the conversation forks, the
// regenerate button under the last reply, and the person's messages with an edit pencil that opens
// inline editing (Save & send starts a new branch from the edited text).
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message } from '../../shared/contract';
import { parseSlideRequest, type SlideRequest } from '../../shared/slide-request';
import { regenerableReply, useBranches } from '../state/branches-store';
import { useChat } from '../state/chat-store';
import { isLiveRunActive } from '../state/live-run';
import { CopyButton } from './CopyButton';
import { Icon } from './Icon';
import { plainT, usePlainT } from '../i18n/plain';

function useIdle(): boolean {
  return useChat((s) => !isLiveRunActive(s.live));
}

export function BranchSwitcher({ messageId }: { messageId: string }) {
  const { t } = useTranslation();
  const point = useBranches((s) => s.points[messageId]);
  const switching = useBranches((s) => s.switching);
  const switchTo = useBranches((s) => s.switchTo);
  const idle = useIdle();
  if (!point) return null;
  const go = (index: number) => {
    const target = point.siblings[index - 1];
    if (target) void switchTo(target);
  };
  const disabled = switching || !idle;
  return (
    <span className="branch-switcher" data-testid="branch-switcher" role="group" aria-label={plainT('branches.switcher')}>
      <button type="button" className="icon-btn" disabled={disabled || point.index <= 1} onClick={() => go(point.index - 1)} aria-label={t('branches.previous')} title={t('branches.previous')} data-testid="branch-prev">
        <Icon name="back" size={12} />
      </button>
      <span className="branch-position" data-testid="branch-position">
        {t('branches.position', { index: point.index, count: point.count })}
      </span>
      <button type="button" className="icon-btn" disabled={disabled || point.index >= point.count} onClick={() => go(point.index + 1)} aria-label={plainT('branches.next')} title={plainT('branches.next')} data-testid="branch-next">
        <Icon name="chevron" size={12} />
      </button>
    </span>
  );
}

/** Under an assistant message: its switcher, and "regenerate" when it is the reply to the last message. */
export function ReplyTools({ message }: { message: Message }) {
  const plainT = usePlainT();
  const regenerable = useChat((s) => regenerableReply(s.messages) === message.id);
  const idle = useIdle();
  const regenerate = useBranches((s) => s.regenerate);
  const forked = useBranches((s) => s.points[message.id] !== undefined);
  const copyable = message.content.trim() !== '';
  if (!copyable && !forked && !(regenerable && idle)) return null;
  return (
    <div className="msg-tools msg-tools-reply">
      {copyable && <CopyButton read={() => message.content} label="copy.message" testId="copy-message" />}
      <BranchSwitcher messageId={message.id} />
      {regenerable && idle && (
        <button type="button" className="icon-btn" onClick={() => void regenerate()} aria-label={plainT('branches.regenerate')} title={plainT('branches.regenerate')} data-testid="regenerate">
          <Icon name="regenerate" size={14} />
        </button>
      )}
    </div>
  );
}

/** The person's message: its bubble with the switcher and an edit pencil, or the inline editor. */
export function UserMessage({ message }: { message: Message }) {
  const plainT = usePlainT();
  const editing = useBranches((s) => s.editing === message.id);
  const startEdit = useBranches((s) => s.startEdit);
  const idle = useIdle();
  const slideRequest = useMemo(() => parseSlideRequest(message.content), [message.content]);
  if (editing) return <MessageEditor message={message} />;
  return (
    <div className="msg-user-body">
      {slideRequest ? <SlideRequestBubble request={slideRequest} /> : <div className="msg-bubble">{message.content}</div>}
      <div className="msg-tools">
        <BranchSwitcher messageId={message.id} />
        {/* A slide request is edited from the deck's preview, where its slides are selected. */}
        {idle && !slideRequest && (
          <button type="button" className="icon-btn" onClick={() => startEdit(message.id)} aria-label={plainT('branches.edit')} title={plainT('branches.edit')} data-testid="edit-message">
            <Icon name="edit" size={14} />
          </button>
        )}
      </div>
    </div>
  );
}

/** A change asked from a deck's preview: the slides as a chip, then the person's own words. */
function SlideRequestBubble({ request }: { request: SlideRequest }) {
  const { t } = useTranslation();
  return (
    <div className="msg-bubble msg-slide-request" data-testid="slide-request">
      <span className="slide-chip" title={plainT('chat.slideChipHint')} data-testid="slide-chip">
        {t('chat.slideChip', { count: request.slides.length, slides: request.slides.join(', ') })}
      </span>
      <span className="slide-request-text">{request.instruction}</span>
    </div>
  );
}

function MessageEditor({ message }: { message: Message }) {
  const { t } = useTranslation();
  const [text, setText] = useState(message.content);
  const [saving, setSaving] = useState(false);
  const saveEdit = useBranches((s) => s.saveEdit);
  const cancelEdit = useBranches((s) => s.cancelEdit);
  const idle = useIdle();
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const unchanged = text.trim() === '' || text === message.content;
  const save = async () => {
    if (unchanged || saving) return;
    setSaving(true);
    // On success the editor closes (the store clears `editing`); on failure the text stays for another try.
    const ok = await saveEdit(message.id, text);
    if (!ok) setSaving(false);
  };
  return (
    <div className="msg-editor" data-testid="message-editor">
      <textarea
        ref={ref}
        className="msg-editor-input"
        value={text}
        rows={Math.min(12, Math.max(2, text.split('\n').length))}
        aria-label={plainT('branches.editLabel')}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') cancelEdit();
          // As in the composer: Enter sends unless an IME is composing; Shift+Enter is a new line.
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void save();
          }
        }}
        data-testid="message-editor-input"
      />
      <div className="msg-editor-actions">
        <span className="muted">{t('branches.editHint')}</span>
        <button type="button" className="btn btn-small" onClick={cancelEdit} data-testid="message-editor-cancel">
          {t('branches.cancel')}
        </button>
        <button type="button" className="btn btn-primary btn-small" disabled={unchanged || saving || !idle} onClick={() => void save()} data-testid="message-editor-save">
          {t('branches.save')}
        </button>
      </div>
    </div>
  );
}
