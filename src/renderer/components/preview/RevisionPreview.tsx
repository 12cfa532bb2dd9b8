// A revised .docx: its text with each tracked insertion underlined and each deletion struck through, coloured
// by author (Folio's own changes in the accent colour), and the comments (Folio's reasons) beside their paragraph.
import { useTranslation } from 'react-i18next';
import type { RevisedDocument, RevisionParagraph, RevisionSegment } from '../../../shared/specs/document-revision';
import { plainT } from '../../i18n/plain';

const FOLIO = 'Folio';

function Segment({ segment }: { segment: RevisionSegment }) {
  const { t } = useTranslation();
  const author = segment.author || t('preview.revisionUnknownAuthor');
  const own = segment.author === FOLIO ? ' own' : '';
  if (segment.change === 'ins') {
    return (
      <ins className={`rev-ins${own}`} title={plainT('preview.revisionInserted', { author })} data-testid="rev-ins">
        {segment.text}
      </ins>
    );
  }
  if (segment.change === 'del') {
    return (
      <del className={`rev-del${own}`} title={plainT('preview.revisionDeleted', { author })} data-testid="rev-del">
        {segment.text}
      </del>
    );
  }
  return <>{segment.text}</>;
}

type Block = { kind: 'paragraph'; paragraph: RevisionParagraph } | { kind: 'table'; rows: RevisionParagraph[] };

/** Paragraphs, and each run of table rows as one table. */
function blocks(paragraphs: readonly RevisionParagraph[]): Block[] {
  const out: Block[] = [];
  for (const paragraph of paragraphs) {
    const last = out[out.length - 1];
    if (!paragraph.cells) out.push({ kind: 'paragraph', paragraph });
    else if (last?.kind === 'table') last.rows.push(paragraph);
    else out.push({ kind: 'table', rows: [paragraph] });
  }
  return out;
}

function Comments({ comments }: { comments: RevisionParagraph['comments'] }) {
  const { t } = useTranslation();
  if (comments.length === 0) return null;
  return (
    <aside className="rev-comments">
      {comments.map((c) => (
        <div key={c.id} className="rev-comment" data-testid="rev-comment">
          <strong>{c.author || t('preview.revisionComment')}</strong> {c.text}
        </div>
      ))}
    </aside>
  );
}

/** A table of the document, its cells' changes marked like the paragraphs', a row's comments beside the table. */
function RevisionTable({ rows }: { rows: RevisionParagraph[] }) {
  const comments = rows.flatMap((r) => r.comments);
  return (
    <div className="rev-row">
      <table className="rev-table" data-testid="rev-table">
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {(row.cells ?? []).map((cell, j) => (
                <td key={j}>
                  {cell.map((s, k) => (
                    <Segment key={k} segment={s} />
                  ))}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <Comments comments={comments} />
    </div>
  );
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
        {blocks(revision.paragraphs).map((block, i) =>
          block.kind === 'table' ? (
            <RevisionTable key={i} rows={block.rows} />
          ) : (
            <div key={i} className="rev-row">
              <p className={block.paragraph.heading ? 'rev-p rev-heading' : 'rev-p'}>
                {block.paragraph.number && (
                  <span className="rev-number" data-testid="rev-number">
                    {block.paragraph.number}
                  </span>
                )}
                {block.paragraph.segments.map((s, j) => (
                  <Segment key={j} segment={s} />
                ))}
              </p>
              <Comments comments={block.paragraph.comments} />
            </div>
          ),
        )}
      </div>
      {revision.truncated && <p className="muted">{t('preview.revisionTruncated', { count: revision.paragraphs.length })}</p>}
    </div>
  );
}
