import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileEntry, FileKind } from '../../shared/contract';
import { formatBytes } from '../lib/format';
import { useFiles } from '../state/files-store';
import { Icon } from './Icon';

const kinds: FileKind[] = ['source', 'work', 'artifact'];

/** Files live under `<kind>/...`; the list already groups by kind, so it shows the rest. */
function displayName(entry: FileEntry): string {
  const prefix = `${entry.kind}/`;
  return entry.path.startsWith(prefix) ? entry.path.slice(prefix.length) : entry.path;
}

export function FilesPanel({ taskId }: { taskId: string }) {
  const { t } = useTranslation();
  const files = useFiles((s) => s.files);
  const uploading = useFiles((s) => s.uploading);
  const error = useFiles((s) => s.error);
  const load = useFiles((s) => s.load);
  const upload = useFiles((s) => s.upload);
  const download = useFiles((s) => s.download);
  const inputRef = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  useEffect(() => {
    void load(taskId);
  }, [taskId, load]);

  return (
    <aside className="files-panel" aria-label={t('files.heading')} data-testid="files-panel">
      <div className="panel-header">
        <span className="panel-title">{t('files.heading')}</span>
        <button type="button" className="btn btn-small" onClick={() => inputRef.current?.click()} disabled={uploading} data-testid="file-pick">
          <Icon name="upload" size={14} />
          {t('files.add')}
        </button>
        <input
          ref={inputRef}
          type="file"
          multiple
          hidden
          onChange={(e) => {
            const picked = Array.from(e.target.files ?? []);
            e.target.value = ''; // picking the same file again must fire change again
            void upload(taskId, picked);
          }}
          data-testid="file-input"
        />
      </div>
      <div
        className={over ? 'drop-zone over' : 'drop-zone'}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={() => setOver(false)}
        data-testid="drop-zone"
      >
        {uploading ? t('files.uploading') : t('files.dropHint')}
      </div>
      {error && (
        <div className="inline-error" role="alert" data-testid="files-error">
          {error.message}
        </div>
      )}
      <div className="file-groups">
        {kinds.map((kind) => {
          const group = files.filter((f) => f.kind === kind);
          return (
            <section key={kind} className="file-group" data-testid={`file-group-${kind}`}>
              <h3 className="file-group-title">
                {t(`files.kind.${kind}`)}
                <span className="count">{group.length}</span>
              </h3>
              {group.length === 0 ? (
                <div className="file-empty muted">{t(`files.empty.${kind}`)}</div>
              ) : (
                <ul className="file-list">
                  {group.map((entry) => (
                    <li key={entry.path} className="file-item" data-testid="file-item" data-path={entry.path}>
                      <Icon name="file" size={14} />
                      <span className="file-name" title={entry.path}>
                        {displayName(entry)}
                      </span>
                      <span className="file-size">{formatBytes(entry.size)}</span>
                      <button
                        type="button"
                        className="icon-btn"
                        onClick={() => void download(entry)}
                        title={t('files.download')}
                        aria-label={t('files.downloadNamed', { name: displayName(entry) })}
                        data-testid="file-download"
                      >
                        <Icon name="download" size={14} />
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          );
        })}
      </div>
    </aside>
  );
}
