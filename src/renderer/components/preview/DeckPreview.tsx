// A rendered deck as thumbnails drawn from its plan (one per slide in the file, continuations
// included), its quality report, and an enlarged view with the speaker notes.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeckSpec, QualityIssue, QualityReport } from '../../../shared/specs/deck';
import type { DeckPlan } from '../../../shared/specs/deck-plan';
import type { Theme } from '../../../shared/specs/themes';
import { builtinThemeLabel, issuesBySlide, previewTheme, slideIssuesTooltip } from '../../lib/deck-preview';
import { Icon } from '../Icon';
import { DeckNotesView, type DeckView, DeckViewToggle } from './DeckNotesView';
import { FindingText } from './FindingText';
import { SlideChangeBar } from './SlideChangeBar';
import { useSlideSelection } from './slide-selection';
import { SlideView } from './SlideView';
import { useElementWidth } from './use-width';
import { plainT } from '../../i18n/plain';

const THUMB_MIN = 170;
const GAP = 10;

interface DeckPreviewProps {
  taskId: string;
  spec: DeckSpec;
  report: QualityReport | null;
  /** Null for decks rendered before plans existed: no slides are drawn then. */
  plan: DeckPlan | null;
  /** The theme the render drew with (user themes and imported templates are not in the renderer's list). */
  drawnTheme?: Theme | null;
  /** The deck file: with it, slides can be selected and a change to just those asked for. */
  path?: string;
  /** The spec file the deck was rendered from, when its render recorded one. */
  specPath?: string | null;
}

export function DeckPreview({ taskId, spec, report, plan, drawnTheme = null, path, specPath = null }: DeckPreviewProps) {
  const { t } = useTranslation();
  const gridRef = useRef<HTMLDivElement>(null);
  const gridWidth = useElementWidth(gridRef);
  const [enlarged, setEnlarged] = useState<number | null>(null);
  const [view, setView] = useState<DeckView>('slides');
  const selection = useSlideSelection(plan, path ?? '');
  const { theme, known } = useMemo(() => (drawnTheme ? { theme: drawnTheme, known: true } : previewTheme(spec.theme)), [drawnTheme, spec.theme]);
  const themeLabel = builtinThemeLabel(theme, t);
  const issues = useMemo(() => issuesBySlide(report), [report]);
  const columns = Math.max(1, Math.floor((gridWidth + GAP) / (THUMB_MIN + GAP)));
  const thumbWidth = gridWidth > 0 ? Math.floor((gridWidth - GAP * (columns - 1)) / columns) : 0;
  const slides = plan?.slides ?? [];
  /** The first output slide made from a spec slide (the report names spec slides). */
  const firstOutput = (index: number): number => Math.max(0, slides.findIndex((s) => s.source_index === index));

  return (
    <div className="deck-preview" data-testid="deck-preview">
      <div className="preview-meta">
        <span className="badge">{t('preview.theme', { theme: themeLabel })}</span>
        <span className="badge">{spec.aspect}</span>
        <span className="muted">
          {report
            ? t('preview.deckSummary', {
                slides: t('preview.slideCount', { count: report.summary.slides_in }),
                out: t('preview.slideCount', { count: report.summary.slides_out }),
                issues: t('preview.issueCount', { count: report.summary.issues }),
              })
            : t('preview.slideCount', { count: spec.slides.length })}
        </span>
        {report && <CheckedBadge checked={report.checked} />}
        {plan && <DeckViewToggle view={view} onChange={setView} />}
      </div>
      {!known && <div className="preview-note muted">{t('preview.unknownTheme', { theme: spec.theme, fallback: themeLabel })}</div>}
      {!plan && <div className="preview-note muted" data-testid="deck-no-plan">{t('preview.noPlan')}</div>}
      {plan && view === 'notes' && <DeckNotesView taskId={taskId} spec={spec} plan={plan} theme={theme} />}
      <div className="slide-grid" ref={gridRef} hidden={view === 'notes'} style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: GAP }}>
        {plan &&
          thumbWidth > 0 &&
          slides.map((slide, n) => {
            const slideIssues = slide.part === 0 ? (issues.get(slide.source_index) ?? []) : [];
            const layout = spec.slides[slide.source_index]?.layout;
            const id = path ? slide.slide_id : undefined;
            const selected = id !== undefined && selection.isSelected(id);
            return (
              <div key={n} className={selected ? 'slide-thumb-wrap selected' : 'slide-thumb-wrap'}>
                {id !== undefined && (
                  <input
                    type="checkbox"
                    className="slide-select"
                    checked={selected}
                    onChange={() => selection.toggle(id)}
                    aria-label={plainT('deckVersions.selectSlide', { number: n + 1 })}
                    title={plainT('deckVersions.selectHint')}
                    data-testid="slide-select"
                  />
                )}
                <button
                  type="button"
                  className={slideIssues.length > 0 ? 'slide-thumb has-issues' : 'slide-thumb'}
                  onClick={(e) => {
                    // Ctrl/⌘ and Shift select (the slide this one continues); a plain click enlarges.
                    if (id === undefined || !selection.click(id, e)) setEnlarged(n);
                  }}
                  aria-label={plainT('preview.enlargeSlide', { number: n + 1 })}
                  data-testid="slide-thumb"
                  data-index={slide.source_index}
                  data-slide-id={slide.slide_id}
                >
                  <SlideView taskId={taskId} plan={plan} slide={slide} theme={theme} width={thumbWidth} lang={spec.language} />
                  <span className="slide-thumb-footer">
                    <span className="slide-thumb-number">{n + 1}</span>
                    <span className="muted">{slide.part > 0 ? t('preview.continued') : layout ? t(`preview.layout.${layout}`) : ''}</span>
                    {slideIssues.length > 0 && (
                      <span className="badge badge-warning" title={slideIssuesTooltip(slideIssues)} data-testid="slide-issue-badge">
                        {t('preview.issueCount', { count: slideIssues.length })}
                      </span>
                    )}
                  </span>
                </button>
              </div>
            );
          })}
      </div>
      {path && selection.selected.length > 0 && <SlideChangeBar path={path} specPath={specPath} slides={selection.selected} onClear={selection.clear} />}
      {issues.size > 0 && (
        <section className="preview-issues" data-testid="quality-issues">
          <h4>{t('preview.qualityReport')}</h4>
          <ul>
            {[...issues.entries()].map(([index, list]) =>
              list.map((issue, i) => (
                <li key={`${index}-${i}`}>
                  <button type="button" className="link-btn" onClick={() => plan && setEnlarged(firstOutput(index))}>
                    {t('preview.slideN', { number: (report?.slides.find((s) => s.index === index)?.output_slides[0] ?? index + 1) })}
                  </button>
                  <IssueText issue={issue} />
                </li>
              )),
            )}
          </ul>
        </section>
      )}
      {enlarged !== null && plan && slides[enlarged] && (
        <SlideLightbox
          taskId={taskId}
          plan={plan}
          lang={spec.language}
          index={enlarged}
          issues={slides[enlarged]?.part === 0 ? (issues.get(slides[enlarged]?.source_index ?? -1) ?? []) : []}
          theme={theme}
          onNavigate={(next) => setEnlarged(Math.min(slides.length - 1, Math.max(0, next)))}
          onClose={() => setEnlarged(null)}
        />
      )}
    </div>
  );
}

/** Whether the report was read back from the slides as LibreOffice drew them or only estimated from the layout. */
function CheckedBadge({ checked }: { checked: QualityReport['checked'] }) {
  const { t } = useTranslation();
  if (checked?.mode === 'rendered') {
    return (
      <span className="badge" data-testid="report-checked" data-mode="rendered">
        {t('report.checkedRendered')}
      </span>
    );
  }
  // Reports written before the check existed have no mode: they were estimates too.
  const title = checked?.reason ? t('report.checkedEstimatedWhy', { reason: checked.reason }) : undefined;
  return (
    <span className="badge badge-warning" title={title} data-testid="report-checked" data-mode="estimated">
      {t('report.checkedEstimated')}
    </span>
  );
}

function IssueText({ issue }: { issue: QualityIssue }) {
  const { t } = useTranslation();
  return (
    <span className="issue-text">
      <span className={`issue-kind issue-${issue.kind}`}>{t(`report.deckIssueKind.${issue.kind}`, { defaultValue: issue.kind })}</span>{' '}
      <FindingText help={t(`report.deckIssueHelp.${issue.kind}`, { defaultValue: '' })} message={issue.message} />
    </span>
  );
}

interface LightboxProps {
  taskId: string;
  plan: DeckPlan;
  lang: string | undefined;
  index: number;
  issues: QualityIssue[];
  theme: ReturnType<typeof previewTheme>['theme'];
  onNavigate: (index: number) => void;
  onClose: () => void;
}

function SlideLightbox({ taskId, plan, lang, index, issues, theme, onNavigate, onClose }: LightboxProps) {
  const { t } = useTranslation();
  const stageRef = useRef<HTMLDivElement>(null);
  const stageWidth = useElementWidth(stageRef);
  const slide = plan.slides[index];
  const total = plan.slides.length;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
      if (e.key === 'ArrowRight' || e.key === 'PageDown') onNavigate(index + 1);
      if (e.key === 'ArrowLeft' || e.key === 'PageUp') onNavigate(index - 1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [index, onClose, onNavigate]);

  return (
    <div className="modal-backdrop" onMouseDown={onClose}>
      <div className="modal lightbox" role="dialog" aria-modal="true" aria-label={plainT('preview.slideN', { number: index + 1 })} onMouseDown={(e) => e.stopPropagation()} data-testid="slide-lightbox">
        <div className="lightbox-head">
          <span className="modal-title">{t('preview.slideOf', { number: index + 1, total })}</span>
          <span className="lightbox-nav">
            <button type="button" className="btn btn-small" disabled={index === 0} onClick={() => onNavigate(index - 1)} data-testid="slide-prev">
              {t('preview.previous')}
            </button>
            <button type="button" className="btn btn-small" disabled={index === total - 1} onClick={() => onNavigate(index + 1)} data-testid="slide-next">
              {t('preview.next')}
            </button>
            <button type="button" className="icon-btn" onClick={onClose} aria-label={plainT('common.close')} data-testid="lightbox-close">
              <Icon name="close" size={14} />
            </button>
          </span>
        </div>
        <div className="lightbox-stage" ref={stageRef}>
          {stageWidth > 0 && slide && <SlideView taskId={taskId} plan={plan} slide={slide} theme={theme} width={stageWidth} lang={lang} />}
        </div>
        {issues.length > 0 && (
          <ul className="lightbox-issues">
            {issues.map((issue, i) => (
              <li key={i}>
                <IssueText issue={issue} />
              </li>
            ))}
          </ul>
        )}
        <div className="lightbox-notes" data-testid="slide-notes">
          <div className="field-label">{t('preview.notes')}</div>
          {slide?.notes ? <div className="notes-text">{slide.notes}</div> : <div className="muted">{t('preview.noNotes')}</div>}
        </div>
      </div>
    </div>
  );
}
