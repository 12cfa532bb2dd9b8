// What a task's files and a library's files share on screen: the drop zone, a file's row (icon,
// name, read status, size, one action, and the reader's message under it) and the status badge.
// The task's panel (FilesPanel) and a library's page (LibraryPanel) bring what differs.
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LibraryFileStatus } from '../../shared/contract';
import { formatBytes } from '../lib/format';
import { Icon } from './Icon';
import { ServerDetail } from './ErrorText';
import { plainT } from '../i18n/plain';

/**
 * Where files can be dropped. The window's drop overlay takes the files (to the task, or to the
 * library whose page is open); this only shows where, and that an upload is under way.
 */
export function DropZone({ busy, hint, testId }: { busy: boolean; hint: string; testId: string }) {
  const { t } = useTranslation();
  const [over, setOver] = useState(false);
  return (
    <div
      className={over ? 'drop-zone over' : 'drop-zone'}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={() => setOver(false)}
      data-testid={testId}
    >
      {busy ? t('files.uploading') : hint}
    </div>
  );
}

interface FileRowProps {
  /** The name, as text or as a button that opens the file. */
  name: ReactNode;
  badge?: ReactNode;
  size: number;
  /** The row's one action (download, delete). */
  action: ReactNode;
  /** The reader's message under the row: an error is announced, a note is muted. */
  message?: { text: string | null; error: boolean } | null;
  /** Headline before an error's message. */
  messageTitle?: string;
  testId: string;
  path: string;
  status?: string;
}

export function FileRow({ name, badge, size, action, message, messageTitle, testId, path, status }: FileRowProps) {
  return (
    <li className="file-item" data-testid={testId} data-path={path} data-status={status}>
      <div className="file-row">
        <Icon name="file" size={14} />
        {name}
        {badge}
        <span className="file-size">{formatBytes(size)}</span>
        {action}
      </div>
      {message && (
        <div className={message.error ? 'source-message' : 'source-message muted'} role={message.error ? 'alert' : undefined} data-testid={message.error ? 'source-error' : undefined}>
          {messageTitle && (
            <>
              <strong>{messageTitle}</strong>{' '}
            </>
          )}
          <ServerDetail text={message.text} />
        </div>
      )}
    </li>
  );
}

interface FileStatusBadgeProps {
  status: BadgeStatus;
  pages: number | null;
  message: string | null;
  /** What waiting is called here: a task's source is being read, a library's file is queued. */
  pendingLabel: string;
  /** Why a scanned file is of little use here (to the assistant, to search). */
  scannedHint: string;
  testId: string;
}

/** A library file's statuses; a task's source has all of them but `indexing`. */
type BadgeStatus = LibraryFileStatus;

/** A file's read status: pages when read, scanned or image with why that matters, or unreadable. */
export function FileStatusBadge({ status, pages: pageCount, message, pendingLabel, scannedHint, testId }: FileStatusBadgeProps) {
  const { t, i18n } = useTranslation();
  const pages = pageCount === null ? null : t('sources.pages', { count: pageCount });
  const labels: Record<BadgeStatus, string> = {
    pending: pendingLabel,
    indexing: t('library.status.indexing'),
    ok: pages ?? t('sources.ready'),
    scanned: pages ? t('sources.scannedPages', { pages }) : t('sources.scanned'),
    image: t('sources.image'),
    error: t('sources.error'),
  };
  const label = labels[status];
  // No tooltip that only says the label again; the reader's own (English) words only on an English
  // screen, as under the row (ServerDetail).
  const readerWords = message !== null && i18n.language.startsWith('en') ? message : undefined;
  const hint = status === 'scanned' ? scannedHint : status === 'image' ? plainT('sources.imageHint') : readerWords;
  // Indexing is drawn as waiting.
  const look = status === 'indexing' ? 'pending' : status;
  return (
    <span className={`source-status source-${look}`} title={hint} data-testid={testId} data-status={status}>
      {look === 'pending' && <span className="spinner spinner-tiny" />}
      {label}
    </span>
  );
}
