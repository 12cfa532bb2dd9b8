// The deck preview's presenter-notes view: each slide beside its speaker notes, as a presenter
// rehearses with them, including the text the planner moved off a slide to keep it readable
// (shown apart, so the person sees what the slide no longer says). A toggle switches the preview
// between this view and the slide grid.
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeckSpec } from '../../../shared/specs/deck';
import type { DeckPlan } from '../../../shared/specs/deck-plan';
import type { Theme } from '../../../shared/specs/themes';
import { slideNotes } from '../../lib/deck-notes';
import { SlideView } from './SlideView';
import { useElementWidth } from './use-width';
import { plainT } from '../../i18n/plain';

export type DeckView = 'slides' | 'notes';

/** Below this width the slide sits above its notes instead of beside them. */
const SIDE_BY_SIDE_MIN = 480;
const SLIDE_MAX = 300;

export function DeckViewToggle({ view, onChange }: { view: DeckView; onChange: (view: DeckView) => void }) {
  const { t } = useTranslation();
  return (
    <div className="segmented deck-view-toggle" role="tablist" aria-label={plainT('deckNotes.view')}>
      {(['slides', 'notes'] as const).map((v) => (
        <button
          key={v}
          type="button"
          role="tab"
          aria-selected={view === v}
          className={view === v ? 'segment active' : 'segment'}
          onClick={() => onChange(v)}
          data-testid={`deck-view-${v}`}
        >
          {t(v === 'slides' ? 'deckNotes.slides' : 'deckNotes.notes')}
        </button>
      ))}
    </div>
  );
}

interface DeckNotesViewProps {
  taskId: string;
  spec: DeckSpec;
  plan: DeckPlan;
  theme: Theme;
}

export function DeckNotesView({ taskId, spec, plan, theme }: DeckNotesViewProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const width = useElementWidth(ref);
  // Before the first layout (width 0) the slides are drawn at their largest, beside the notes.
  const sideBySide = width === 0 || width >= SIDE_BY_SIDE_MIN;
  const slideWidth = width === 0 ? SLIDE_MAX : sideBySide ? Math.min(SLIDE_MAX, Math.floor(width * 0.45)) : width;

  return (
    <div className="deck-notes" ref={ref} data-testid="deck-notes-view">
      {plan.slides.map((slide, n) => {
        const { own, moved } = slideNotes(spec, slide);
        const title = spec.slides[slide.source_index]?.title;
        return (
          <section key={n} className={sideBySide ? 'deck-notes-row' : 'deck-notes-row stacked'} data-testid="deck-notes-row" data-index={slide.source_index}>
            <div className="deck-notes-slide" style={{ width: slideWidth }}>
              <SlideView taskId={taskId} plan={plan} slide={slide} theme={theme} width={slideWidth} lang={spec.language} />
            </div>
            <div className="deck-notes-text">
              <div className="field-label">
                {t('preview.slideN', { number: n + 1 })}
                {title ? ` · ${title}` : ''}
                {slide.part > 0 ? ` · ${t('preview.continued')}` : ''}
              </div>
              {own && (
                <div className="notes-text" data-testid="deck-notes-own">
                  {own}
                </div>
              )}
              {!own && !moved && <div className="muted">{t('preview.noNotes')}</div>}
              {moved && (
                <div className="deck-notes-moved" data-testid="deck-notes-moved">
                  <div className="muted">{t('deckNotes.moved')}</div>
                  <div className="notes-text">{moved}</div>
                </div>
              )}
            </div>
          </section>
        );
      })}
    </div>
  );
}
