// The sidebar's personal library is drawn as a library (the books the task's library rows show),
// not as a single file.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PERSONAL_LIBRARY } from '../../shared/contract/library-id';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import { ProjectsNav } from './ProjectsNav';
import { TaskLibraryRows } from './TaskLibraryRows';

const iconBefore = (html: string, testId: string): string | undefined => {
  const at = html.indexOf(`data-testid="${testId}"`);
  const rest = at === -1 ? '' : html.slice(at);
  return /data-icon="([a-z]+)"/u.exec(rest)?.[1];
};

describe('the personal library in the sidebar', () => {
  useUiLanguage();

  it('has the icon a library has wherever one is listed', () => {
    const nav = renderToStaticMarkup(<ProjectsNav />);
    const rows = renderToStaticMarkup(<TaskLibraryRows libraries={[{ library: PERSONAL_LIBRARY, files: 2 }]} />);
    expect(iconBefore(rows, 'task-library')).toBe('library');
    expect(iconBefore(nav, 'personal-library')).toBe('library');
  });
});
