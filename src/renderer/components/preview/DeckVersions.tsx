// The versions of the deck being previewed (deck.pptx, deck-v2.pptx, ...): which slides each changed,
// the changed slides old beside new, and "go back to this version" (a new latest version; nothing is
// overwritten or deleted).
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ArtifactPreview } from '../../../shared/contract';
import type { DeckPlan, PlannedSlide } from '../../../shared/specs/deck-plan';
import type { DeckVersion } from '../../../shared/specs/deck-versions';
import { previewTheme } from '../../lib/deck-preview';
import { formatDateTime } from '../../lib/format';
import { getApi } from '../../state/api';
import { fileName, useArtifacts } from '../../state/artifacts-store';
import { useFiles } from '../../state/files-store';
import { toErrorInfo, type ErrorInfo } from '../../state/notices';
import { SlideView } from './SlideView';
import { useElementWidth } from './use-width';
import { ErrorText } from '../ErrorText';
import { plainT } from '../../i18n/plain';

type DeckData = Extract<ArtifactPreview, { kind: 'deck' }>;

interface DeckVersionsProps {
  taskId: string;
  /** The version being previewed. */
  current: DeckData;
}

export function DeckVersions({ taskId, current }: DeckVersionsProps) {
  const { t, i18n } = useTranslation();
  const files = useFiles((s) => s.files);
  const select = useArtifacts((s) => s.select);
  const afterRender = useArtifacts((s) => s.afterRender);
  const [versions, setVersions] = useState<DeckVersion[]>([]);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [restoring, setRestoring] = useState<string | null>(null);
  const path = current.path;

  // The list changes when files do (a new version rendered or restored).
  useEffect(() => {
    let alive = true;
    getApi()
      .client.listDeckVersions({ task_id: taskId, path })
      .then(
        (r) => alive && setVersions(r.versions),
        () => alive && setVersions([]),
      );
    return () => {
      alive = false;
    };
  }, [taskId, path, files]);

  const index = versions.findIndex((v) => v.path === path);
  const shown = versions[index];
  const previous = index > 0 ? versions[index - 1] : undefined;
  if (versions.length < 2 || !shown) return null;

  const restore = async (v: DeckVersion) => {
    setRestoring(v.path);
    setError(null);
    try {
      await getApi().client.restoreDeckVersion({ task_id: taskId, path: v.path });
      await afterRender(taskId);
    } catch (err) {
      setError(toErrorInfo(err));
    } finally {
      setRestoring(null);
    }
  };

  const latest = versions[versions.length - 1];
  return (
    <section className="deck-versions" data-testid="deck-versions">
      <h4>{t('deckVersions.heading', { count: versions.length })}</h4>
      <ol className="deck-version-list">
        {[...versions].reverse().map((v) => {
          const changed = v.slides.filter((s) => s.change !== 'unchanged');
          return (
            <li key={v.path} className={v.path === path ? 'deck-version current' : 'deck-version'} data-testid="deck-version" data-path={v.path} data-version={v.version} aria-current={v.path === path}>
              <button type="button" className="link-btn deck-version-name" onClick={() => select(taskId, v.path)} title={fileName(v.path)}>
                {t('deckVersions.versionN', { number: v.version })}
              </button>
              <span className="deck-version-summary" data-testid="deck-version-summary">
                {summary(t, v)}
                {v.version > 1 &&
                  v.comparable &&
                  changed.map((s) => (
                    <span key={s.id} className={`badge slide-change-${s.change}`} data-testid="version-changed-slide" data-slide-id={s.id} data-change={s.change}>
                      {t('deckVersions.slideRef', { id: s.id, number: s.number })}
                    </span>
                  ))}
              </span>
              {/* After what changed: the version and its change read together, the time aside. */}
              <span className="muted" data-dynamic>
                {formatDateTime(v.created_at, i18n.language)}
              </span>
              {v !== latest && (
                <button type="button" className="btn btn-small" disabled={restoring !== null} onClick={() => void restore(v)} data-testid="version-restore" title={plainT('deckVersions.restoreHint')}>
                  {restoring === v.path && <span className="spinner" />}
                  {t('deckVersions.restore')}
                </button>
              )}
            </li>
          );
        })}
      </ol>
      {error && (
        <div className="inline-error" role="alert" data-testid="version-error">
          <ErrorText error={error} />
        </div>
      )}
      {previous && shown.comparable && <VersionDiff taskId={taskId} current={current} version={shown} previous={previous} />}
    </section>
  );
}

function summary(t: ReturnType<typeof useTranslation>['t'], v: DeckVersion): string {
  const restored = v.restored_from ? ` ${t('deckVersions.restoredFrom', { name: fileName(v.restored_from) })}` : '';
  if (v.version === 1) return t('deckVersions.first') + restored;
  if (!v.comparable) return t('deckVersions.notComparable');
  const changed = v.slides.filter((s) => s.change !== 'unchanged').length + v.removed.length;
  return (changed === 0 ? t('deckVersions.noChanges') : t('deckVersions.changedCount', { count: changed })) + restored;
}

/** The first slide drawn for a spec slide. */
function firstSlide(plan: DeckPlan | null, id: string): PlannedSlide | undefined {
  return plan?.slides.find((s) => s.slide_id === id);
}

/** The changed slides of `version`, each drawn as it was in the previous version and as it is now. */
function VersionDiff({ taskId, current, version, previous }: { taskId: string; current: DeckData; version: DeckVersion; previous: DeckVersion }) {
  const { t } = useTranslation();
  const [before, setBefore] = useState<DeckData | null>(null);
  const ref = useRef<HTMLDivElement>(null);
  const width = useElementWidth(ref);
  const { theme } = useMemo(() => previewTheme(current.spec.theme), [current.spec.theme]);
  const beforeTheme = useMemo(() => previewTheme(before?.spec.theme ?? current.spec.theme).theme, [before, current.spec.theme]);

  useEffect(() => {
    let alive = true;
    getApi()
      .client.getArtifactPreview({ task_id: taskId, path: previous.path })
      .then(
        (p) => alive && setBefore(p.kind === 'deck' ? p : null),
        () => alive && setBefore(null),
      );
    return () => {
      alive = false;
    };
  }, [taskId, previous.path]);

  const changed = version.slides.filter((s) => s.change !== 'unchanged');
  if (changed.length === 0 && version.removed.length === 0) return null;
  const thumb = Math.max(0, Math.floor((width - 12) / 2));
  return (
    <div className="version-diff" ref={ref} data-testid="version-diff">
      <div className="version-diff-head muted">
        <span>{t('deckVersions.before', { number: previous.version })}</span>
        <span>{t('deckVersions.after', { number: version.version })}</span>
      </div>
      {thumb > 0 &&
        changed.map((s) => {
          const old = firstSlide(before?.plan ?? null, s.id);
          const now = firstSlide(current.plan, s.id);
          return (
            <div key={s.id} className="version-diff-row" data-testid="version-diff-row" data-slide-id={s.id}>
              <div className="version-diff-cell">
                {old && before?.plan ? <SlideView taskId={taskId} plan={before.plan} slide={old} theme={beforeTheme} width={thumb} lang={before.spec.language} /> : <div className="version-diff-none muted">{t('deckVersions.added')}</div>}
              </div>
              <div className="version-diff-cell">{now && current.plan && <SlideView taskId={taskId} plan={current.plan} slide={now} theme={theme} width={thumb} lang={current.spec.language} />}</div>
              <div className="version-diff-label muted">{t('deckVersions.slideRef', { id: s.id, number: s.number })}</div>
            </div>
          );
        })}
      {version.removed.length > 0 && <div className="muted">{t('deckVersions.removed', { slides: version.removed.join(', ') })}</div>}
    </div>
  );
}
