// The selected artifact's preview: a deck or document drawn from the data its render left behind,
// a PDF's real pages, or the reason there is nothing to show. Loaded lazily by the artifacts panel.
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ArtifactPreview as PreviewData } from '../../../shared/contract';
import { artifactType } from '../../state/artifacts-store';
import { getApi } from '../../state/api';
import { toErrorInfo, type ErrorInfo } from '../../state/notices';
import { DeckPreview } from './DeckPreview';
import { DeckVersions } from './DeckVersions';
import { DocumentPreview } from './DocumentPreview';
import { RevisionPreview } from './RevisionPreview';
import { ErrorText } from '../ErrorText';

const PdfPreview = lazy(() => import('./PdfPreview').then((m) => ({ default: m.PdfPreview })));

type State = { status: 'loading' } | { status: 'error'; error: ErrorInfo } | { status: 'ready'; preview: PreviewData };

export function ArtifactPreview({ taskId, path, page = null }: { taskId: string; path: string; page?: number | null }) {
  const { t } = useTranslation();
  const isPdf = artifactType(path) === 'pdf';
  const [state, setState] = useState<{ key: string; value: State } | null>(null);
  const key = `${taskId}\n${path}`;

  useEffect(() => {
    if (isPdf) return;
    let alive = true;
    setState({ key, value: { status: 'loading' } });
    void getApi()
      .client.getArtifactPreview({ task_id: taskId, path })
      .then(
        (preview) => {
          if (alive) setState({ key, value: { status: 'ready', preview } });
        },
        (err: unknown) => {
          if (alive) setState({ key, value: { status: 'error', error: toErrorInfo(err) } });
        },
      );
    return () => {
      alive = false;
    };
  }, [taskId, path, key, isPdf]);

  if (isPdf) {
    return (
      <Suspense fallback={<PreviewLoading />}>
        <PdfPreview file={{ kind: 'task', taskId, path }} page={page} />
      </Suspense>
    );
  }
  const current = state?.key === key ? state.value : { status: 'loading' as const };
  if (current.status === 'loading') return <PreviewLoading />;
  if (current.status === 'error') {
    return (
      <div className="inline-error" role="alert" data-testid="preview-error">
        <ErrorText error={current.error} />
      </div>
    );
  }
  const preview = current.preview;
  switch (preview.kind) {
    case 'deck':
      return (
        <>
          <DeckPreview taskId={taskId} spec={preview.spec} report={preview.report} plan={preview.plan} drawnTheme={preview.theme} path={preview.path} specPath={preview.version?.spec_path ?? null} />
          <DeckVersions taskId={taskId} current={preview} />
        </>
      );
    case 'document':
      return <DocumentPreview spec={preview.spec} sections={preview.sections} report={preview.report} />;
    case 'revision':
      return <RevisionPreview revision={preview} />;
    case 'none':
      return (
        <div className="preview-none muted" data-testid="preview-none">
          {t('preview.none', { reason: preview.reason })}
        </div>
      );
  }
}

function PreviewLoading() {
  const { t } = useTranslation();
  return (
    <div className="preview-loading muted" data-testid="preview-loading">
      <span className="spinner" />
      {t('preview.loading')}
    </div>
  );
}

