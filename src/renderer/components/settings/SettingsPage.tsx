import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useApp } from '../../state/app-store';
import { useArtifacts } from '../../state/artifacts-store';
import { useUsage } from '../../state/usage-store';
import { Icon } from '../Icon';
import { ConfigWarningsSection } from './ConfigWarningsSection';
import { EmbeddingSection } from './EmbeddingSection';
import { GeneralSection } from './GeneralSection';
import { McpSection } from './McpSection';
import { ModelSetupSection } from './ModelSetupSection';
import { ModelsSection } from './ModelsSection';
import { SearchSection } from './SearchSection';
import { SkillsSection } from './SkillsSection';
import { TemplatesSection } from './TemplatesSection';
import { ToolPermissionsSection } from './ToolPermissionsSection';
import { useSectionNav } from './use-section-nav';
import { plainT } from '../../i18n/plain';

/** The page's sections in order: the navigation's entries, each found by its test id, named by its heading's string. */
const SECTIONS = [
  { id: 'general-section', label: 'settings.general' },
  { id: 'config-warnings-section', label: 'settings.warnings' },
  { id: 'model-setup-section', label: 'setup.sectionTitle' },
  { id: 'models-section', label: 'settings.models' },
  { id: 'skills-section', label: 'settings.skills' },
  { id: 'templates-section', label: 'templates.title' },
  { id: 'tool-permissions-section', label: 'permissions.title' },
  { id: 'search-section', label: 'search.title' },
  { id: 'embedding-section', label: 'embedding.title' },
  { id: 'mcp-section', label: 'mcp.title' },
] as const;

/** Settings: a navigation beside one scrolling column of sections, each section its own component. */
export function SettingsPage() {
  const { t } = useTranslation();
  const app = useApp();
  const { loadModels, loadSkills, loadSettings } = app;
  const loadUsage = useUsage((s) => s.load);
  const loadCapabilities = useArtifacts((s) => s.loadCapabilities);

  useEffect(() => {
    void loadSettings();
    void loadModels();
    void loadSkills();
    void loadUsage();
    void loadCapabilities();
  }, [loadSettings, loadModels, loadSkills, loadUsage, loadCapabilities]);

  const warnings = [...app.modelWarnings, ...app.skillWarnings];
  const sections = SECTIONS.filter((s) => s.id !== 'config-warnings-section' || warnings.length > 0);
  const { current, goTo, bodyProps } = useSectionNav(sections, 'general-section');

  return (
    <main className="settings" data-testid="settings-page">
      <header className="settings-header">
        <button type="button" className="icon-btn" onClick={() => app.setView('chat')} aria-label={plainT('common.back')} data-testid="settings-back">
          <Icon name="back" />
        </button>
        <h1>{t('settings.title')}</h1>
      </header>
      <div className="settings-layout">
        <nav className="settings-nav" aria-label={plainT('settings.sections')} data-testid="settings-nav">
          <ul>
            {sections.map((s) => (
              <li key={s.id}>
                <button
                  type="button"
                  className="settings-nav-item"
                  aria-current={current === s.id ? 'true' : undefined}
                  onClick={() => goTo(s.id)}
                  data-testid="settings-nav-item"
                  data-section={s.id}
                >
                  {t(s.label)}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <div className="settings-body" {...bodyProps}>
          <GeneralSection />
          {warnings.length > 0 && <ConfigWarningsSection warnings={warnings} />}
          <ModelSetupSection />
          <ModelsSection />
          <SkillsSection />
          <TemplatesSection />
          <ToolPermissionsSection />
          <SearchSection />
          <EmbeddingSection />
          <McpSection />
        </div>
      </div>
    </main>
  );
}
