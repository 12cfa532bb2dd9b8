// Under the task's own sources: the libraries its agent also searches and reads (the project's,
// the personal one), each with its file count, opening the library's page.
import { useTranslation } from 'react-i18next';
import { PERSONAL_LIBRARY } from '../../shared/contract/library-id';
import type { TaskLibrary } from '../state/task-libraries-store';
import { useProjects } from '../state/projects-store';
import { Icon } from './Icon';
import { plainT } from '../i18n/plain';

export function TaskLibraryRows({ libraries }: { libraries: readonly TaskLibrary[] }) {
  const { t } = useTranslation();
  const open = useProjects((s) => s.open);
  const openPersonal = useProjects((s) => s.openPersonalLibrary);
  if (libraries.length === 0) return null;
  return (
    <ul className="file-list task-libraries" data-testid="task-libraries">
      {libraries.map(({ library, files }) => {
        const personal = library === PERSONAL_LIBRARY;
        const name = personal ? t('library.personal') : t('files.library.project');
        return (
          <li key={library} className="file-item" data-testid="task-library" data-library={library}>
            <div className="file-row" title={plainT('files.library.hint')}>
              <Icon name="library" size={14} />
              <button type="button" className="file-name file-open" onClick={() => (personal ? openPersonal() : open(library))} data-testid="task-library-open">
                {name}
              </button>
              <span className="file-size">{t('files.library.count', { count: files })}</span>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
