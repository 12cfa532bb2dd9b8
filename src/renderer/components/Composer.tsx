import { type ReactNode, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useComposerInsert } from '../state/composer-insert';
import { useFiles } from '../state/files-store';
import { withAttachments } from '../lib/attachments';
import { saveDraft, savedDraft } from '../state/task-view-prefs';
import { FilePickerButton } from './FilePickerButton';
import { Icon } from './Icon';
import { plainT } from '../i18n/plain';

interface ComposerProps {
  /** The task the draft belongs to: an unsent draft is kept per task across reloads. */
  taskId: string;
  running: boolean;
  /** The run is stopped on a question for the person (an approval card in the chat). */
  waitingForApproval?: boolean;
  onSend: (text: string) => Promise<boolean>;
  onCancel: () => void;
  /** The task's model picker, beside the attach button. */
  modelPicker?: ReactNode;
}

const MAX_HEIGHT_PX = 240;

export function Composer({ taskId, running, waitingForApproval = false, onSend, onCancel, modelPicker }: ComposerProps) {
  const { t } = useTranslation();
  const [text, setTextState] = useState(() => savedDraft(taskId));
  // Opening another task shows its own draft, adjusted during render: with a `key` on the composer
  // instead, the chat's message list was seen rendered twice after a branch edit (e2e/branches).
  const [draftTask, setDraftTask] = useState(taskId);
  if (draftTask !== taskId) {
    setDraftTask(taskId);
    setTextState(savedDraft(taskId));
  }
  const setText = useCallback(
    (next: string | ((current: string) => string)) =>
      setTextState((current) => {
        const value = typeof next === 'function' ? next(current) : next;
        saveDraft(taskId, value);
        return value;
      }),
    [taskId],
  );
  const [sending, setSending] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  // Files attached for the next message: already in the task's folder, named in the message on send.
  const [attached, setAttached] = useState<{ task: string; paths: string[] }>({ task: taskId, paths: [] });
  const attachedPaths = attached.task === taskId ? attached.paths : [];
  const [attaching, setAttaching] = useState(false);
  const upload = useFiles((s) => s.upload);
  const attach = async (files: File[]) => {
    if (files.length === 0) return;
    setAttaching(true);
    const added = await upload(taskId, files);
    setAttaching(false);
    setAttached((current) => {
      const paths = current.task === taskId ? current.paths : [];
      return { task: taskId, paths: [...paths, ...added.map((f) => f.path).filter((p) => !paths.includes(p))] };
    });
    ref.current?.focus();
  };
  const detach = (path: string) => {
    setAttached((current) => ({ task: taskId, paths: current.paths.filter((p) => p !== path) }));
    ref.current?.focus();
  };
  // An MCP prompt inserted from the chat header's MCP menu is appended to the draft.
  const inserted = useComposerInsert((s) => s.pending);
  useEffect(() => {
    if (inserted === null) return;
    setText((current) => (current.trim() ? `${current}\n\n${inserted}` : inserted));
    useComposerInsert.getState().clear();
    ref.current?.focus();
  }, [inserted, setText]);

  // Grow with the text up to a limit, then scroll inside.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [text]);

  const disabled = running || sending;

  const submit = async () => {
    const content = withAttachments(text.trim(), attachedPaths, t);
    if (!content || disabled || attaching) return;
    setSending(true);
    const ok = await onSend(content);
    setSending(false);
    if (ok) {
      setText('');
      setAttached({ task: taskId, paths: [] });
    }
    ref.current?.focus();
  };

  return (
    <div className="composer">
      <textarea
        ref={ref}
        className="composer-input"
        rows={1}
        value={text}
        disabled={disabled}
        placeholder={waitingForApproval ? t('composer.waitingApproval') : running ? t('composer.busy') : t('composer.placeholder')}
        aria-label={plainT('composer.label')}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          // While an IME is composing (e.g. Chinese pinyin), Enter confirms the candidate, not the message.
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void submit();
          }
        }}
        data-testid="composer-input"
      />
      {attachedPaths.length > 0 && (
        <ul className="composer-attachments" aria-label={plainT('composer.attachedList')} data-testid="composer-attachments">
          {attachedPaths.map((path) => (
            <li key={path} className="attachment-chip" data-testid="attachment-chip" data-path={path}>
              <Icon name="file" size={12} />
              <span className="attachment-name" title={path}>
                {path.split('/').pop()}
              </span>
              <button type="button" className="icon-btn" onClick={() => detach(path)} aria-label={plainT('composer.detach', { name: path.split('/').pop() })} title={plainT('composer.detachHint')} data-testid="attachment-remove">
                <Icon name="close" size={10} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="composer-actions">
        <FilePickerButton
          className="icon-btn composer-attach"
          onPick={(picked) => void attach(picked)}
          disabled={attaching}
          label={attaching ? plainT('composer.attaching') : plainT('composer.attach')}
          testId="composer-attach"
          inputTestId="composer-attach-input"
        >
          <Icon name="paperclip" size={16} />
        </FilePickerButton>
        {modelPicker}
        {waitingForApproval ? (
          <span className="composer-waiting" role="status" data-testid="composer-waiting">
            <Icon name="alert" size={12} />
            {t('composer.waitingApproval')}
          </span>
        ) : (
          <span className="composer-hint muted">{t('composer.hint')}</span>
        )}
        {running ? (
          <button type="button" className="btn btn-danger" onClick={onCancel} data-testid="cancel-run">
            <Icon name="stop" size={14} />
            {t('composer.cancel')}
          </button>
        ) : (
          <button type="button" className="btn btn-primary" disabled={disabled || attaching || (text.trim() === '' && attachedPaths.length === 0)} onClick={() => void submit()} data-testid="composer-send">
            <Icon name="send" size={14} />
            {t('composer.send')}
          </button>
        )}
      </div>
    </div>
  );
}
