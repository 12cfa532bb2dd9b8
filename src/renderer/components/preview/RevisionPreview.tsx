// A revised .docx: its text with each tracked insertion underlined and each deletion struck through, coloured
// by author (Folio's own changes in the accent colour), and the comments (Folio's reasons) beside their paragraph.
import { useTranslation } from 'react-i18next';
import type { RevisedDocument, RevisionSegment } from '../../../shared/specs/document-revision';

const FOLIO = 'Folio';

function Segment({ segment }: { segment: RevisionSegment }) {
  const { t } = useTranslation();
  const author = segment.author || t('preview.revisionUnknownAuthor');
  const own = segment.author === FOLIO ? ' own' : '';
  if (segment.change === 'ins') {
    return (
      <ins className={`rev-ins${own}`} title={t('preview.revisionInserted', { author })} data-testid="rev-ins">
        {segment.text}
      </ins>
    );
  }
  if (segment.change === 'del') {
    return (
      <del className={`rev-del${own}`} title={t('preview.revisionDeleted', { author })} data-testid="rev-del">
        {segment.text}
      </del>
    );
  }
  return <>{segment.text}</>;
}

export function RevisionPreview({ revision }: { revision: RevisedDocument }) {
  const { t } = useTranslation();
  return (
    <div className="revision-preview" data-testid="revision-preview">
      <div className="preview-meta">
        {revision.source && <span className="muted">{t('preview.revisionSource', { path: revision.source })}</span>}
        {revision.changes.length === 0 && <span className="muted">{t('preview.revisionNoChanges')}</span>}
        {revision.changes.map((c) => (
          <span key={c.author} className="badge" data-testid="rev-summary">
            {t('preview.revisionChanges', {
              author: c.author || t('preview.revisionUnknownAuthor'),
              insertions: t('preview.revisionInsertions', { count: c.insertions }),
              deletions: t('preview.revisionDeletions', { count: c.deletions }),
            })}
          </span>
        ))}
      </div>
      <div className="doc-page revision-page">
        {revision.paragraphs.map((p, i) => (
          <div key={i} className="rev-row">
            <p className={p.heading ? 'rev-p rev-heading' : 'rev-p'}>
              {p.segments.map((s, j) => (
                <Segment key={j} segment={s} />
              ))}
            </p>
            {p.comments.length > 0 && (
              <aside className="rev-comments">
                {p.comments.map((c) => (
                  <div key={c.id} className="rev-comment" data-testid="rev-comment">
                    <strong>{c.author || t('preview.revisionComment')}</strong> {c.text}
                  </div>
                ))}
              </aside>
            )}
          </div>
        ))}
      </div>
      {revision.truncated && <p className="muted">{t('preview.revisionTruncated', { count: revision.paragraphs.length })}</p>}
    </div>
  );
}
