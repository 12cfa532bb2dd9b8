// Files dropped anywhere on the window go to the open task's sources, or to the library whose page is
// open.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFiles } from '../state/files-store';
import { useLibrary } from '../state/library-store';
import { reportError } from '../state/notices';
import { FolioError } from '../../shared/folio-error';

function carriesFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer?.types ?? []).includes('Files');
}

export function DropOverlay({ taskId, taskTitle, libraryName }: { taskId: string | null; taskTitle: string; libraryName?: string }) {
  const { t } = useTranslation();
  const [active, setActive] = useState(false);
  // dragenter/dragleave fire for every child element; count them to know when the drag really left.
  const depth = useRef(0);
  const upload = useFiles((s) => s.upload);
  const uploadToLibrary = useLibrary((s) => s.upload);
  const hasTarget = libraryName !== undefined || taskId !== null;

  useEffect(() => {
    const onEnter = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth.current++;
      setActive(true);
    };
    const onLeave = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setActive(false);
    };
    const onOver = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      // Without this the browser navigates to the dropped file.
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = hasTarget ? 'copy' : 'none';
    };
    const onDrop = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth.current = 0;
      setActive(false);
      const files = Array.from(e.dataTransfer?.files ?? []);
      if (libraryName !== undefined) {
        void uploadToLibrary(files);
        return;
      }
      if (!taskId) {
        reportError(new FolioError('invalid_input', t('files.noTask')));
        return;
      }
      void upload(taskId, files);
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('dragover', onOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('drop', onDrop);
    };
  }, [taskId, upload, t, libraryName, uploadToLibrary, hasTarget]);

  if (!active) return null;
  return (
    <div className="drop-overlay" data-testid="drop-overlay">
      <div className="drop-overlay-card">
        {libraryName !== undefined ? t('library.dropOnLibrary', { name: libraryName }) : taskId ? t('files.dropOnTask', { title: taskTitle }) : t('files.noTask')}
      </div>
    </div>
  );
}
