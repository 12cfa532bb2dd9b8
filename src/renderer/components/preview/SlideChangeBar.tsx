// Under a deck's slides when some are selected: the person writes what should change ("make this a
// chart", "shorter") and it goes to the agent with the selected slides' ids, so only those change.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useChat } from '../../state/chat-store';
import { isLiveRunActive } from '../../state/live-run';
import type { SelectableSlide } from './slide-selection';
import { plainT } from '../../i18n/plain';

interface SlideChangeBarProps {
  /** The deck file the slides were selected in (task-relative). */
  path: string;
  /** The spec it was rendered from, when the render recorded one. */
  specPath: string | null;
  slides: SelectableSlide[];
  onClear: () => void;
}

export function SlideChangeBar({ path, specPath, slides, onClear }: SlideChangeBarProps) {
  const { t } = useTranslation();
  const send = useChat((s) => s.send);
  const busy = useChat((s) => isLiveRunActive(s.live));
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const instruction = text.trim();

  const submit = async () => {
    if (!instruction || busy || sending) return;
    setSending(true);
    const ok = await send(instruction, { artifact_path: path, spec_path: specPath, slides: slides.map(({ id, number }) => ({ id, number })) });
    setSending(false);
    if (ok) {
      setText('');
      onClear();
    }
  };

  return (
    <div className="slide-change-bar" data-testid="slide-change-bar">
      <div className="slide-change-head">
        <span>{t('deckVersions.selected', { count: slides.length, slides: slides.map((s) => t('deckVersions.slideRef', { id: s.id, number: s.number })).join(', ') })}</span>
        <button type="button" className="link-btn" onClick={onClear} data-testid="slide-change-clear">
          {t('deckVersions.clearSelection')}
        </button>
      </div>
      <textarea
        className="slide-change-input"
        rows={2}
        value={text}
        placeholder={t('deckVersions.instructionPlaceholder')}
        aria-label={plainT('deckVersions.instructionLabel')}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void submit();
          }
        }}
        data-testid="slide-change-input"
      />
      <div className="slide-change-actions">
        {busy && <span className="muted">{t('deckVersions.agentBusy')}</span>}
        <button type="button" className="btn btn-small btn-primary" disabled={!instruction || busy || sending} onClick={() => void submit()} data-testid="slide-change-send">
          {t('deckVersions.send')}
        </button>
      </div>
    </div>
  );
}
