// A citation in an answer ("来源：x.pdf 第 3 页"): a chip that opens the cited file at that page in the
// right panel. A citation of a file the task does not have stays plain text.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { resolveCitedFile } from '../lib/citations';
import { useArtifacts } from '../state/artifacts-store';
import { useFiles } from '../state/files-store';
import { Icon } from './Icon';
import { plainT } from '../i18n/plain';

export function CitationChip({ file, page, children }: { file: string; page: number; children: ReactNode }) {
  const { t } = useTranslation();
  const taskId = useFiles((s) => s.taskId);
  const path = useFiles((s) => resolveCitedFile(file, s.files.map((f) => f.path)));
  const showSource = useArtifacts((s) => s.showSource);
  if (!taskId || !path) return <span>{children}</span>;
  const name = path.split('/').pop() ?? path;
  return (
    <button
      type="button"
      className="citation-chip"
      onClick={() => showSource(taskId, path, page)}
      title={plainT('citation.open', { file: name, page })}
      data-testid="citation-chip"
      data-path={path}
      data-page={page}
    >
      <Icon name="file" size={12} />
      {t('citation.label', { file: name, page })}
    </button>
  );
}
