// A project's page: its name, standing instructions and defaults (saved explicitly), and
// its library. The personal library's page is the library alone.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ApprovalMode, PERSONAL_LIBRARY, type Project, type TaskMode } from '../../shared/contract';
import { useApp } from '../state/app-store';
import { toErrorInfo, type ErrorInfo } from '../state/notices';
import { type ProjectPatch, useProjects } from '../state/projects-store';
import { Icon } from './Icon';
import { LibraryPanel } from './LibraryPanel';
import { DefaultModelOption, ModelOptions } from './ModelOptions';
import { ErrorText } from './ErrorText';
import { plainT } from '../i18n/plain';

const approvalModes: ApprovalMode[] = ['ask', 'auto-edit', 'auto'];
const modes: TaskMode[] = ['ppt', 'proposal', 'coding', 'general'];
const INSTRUCTIONS_MAX = 20_000;

export function ProjectPage() {
  const { t } = useTranslation();
  const page = useProjects((s) => s.page);
  const project = useProjects((s) => s.projects.find((p) => p.id === s.page) ?? null);
  const loaded = useProjects((s) => s.loaded);
  const setView = useApp((s) => s.setView);
  const personal = page === PERSONAL_LIBRARY;
  const title = personal ? t('library.personal') : (project?.name ?? '');
  const missing = !personal && loaded && project === null;

  return (
    <section className="settings project-page" data-testid="project-page" data-project-id={page ?? ''}>
      <header className="settings-header">
        <button type="button" className="icon-btn" onClick={() => setView('chat')} aria-label={plainT('common.back')} data-testid="project-back">
          <Icon name="back" />
        </button>
        <h1 data-testid="project-title">{title}</h1>
        {project?.archived && <span className="badge">{t('projects.archivedBadge')}</span>}
      </header>
      <div className="settings-body">
        {missing || page === null ? (
          <p className="muted" data-testid="project-missing">
            {t('projects.missing')}
          </p>
        ) : (
          <>
            {project && <ProjectForm key={project.id} project={project} />}
            {(personal || project) && <LibraryPanel libraryId={page} />}
          </>
        )}
      </div>
    </section>
  );
}

type SaveState = { status: 'idle' } | { status: 'saving' } | { status: 'saved' } | { status: 'failed'; error: ErrorInfo };

function ProjectForm({ project }: { project: Project }) {
  const { t } = useTranslation();
  const save = useProjects((s) => s.save);
  const profiles = useApp((s) => s.profiles);
  const chatProfiles = profiles.filter((p) => p.role === 'chat');
  const defaultModel = useApp((s) => s.settings?.default_model ?? null);
  const [name, setName] = useState(project.name);
  const [instructions, setInstructions] = useState(project.instructions);
  const [model, setModel] = useState(project.default_model ?? '');
  const [mode, setMode] = useState(project.default_mode ?? '');
  const [approval, setApproval] = useState(project.default_approval_mode ?? '');
  const [state, setState] = useState<SaveState>({ status: 'idle' });

  // A rename from the sidebar shows here too (after a save here it is the same name).
  useEffect(() => setName(project.name), [project.name]);

  const patch: ProjectPatch = {
    name: name.trim(),
    instructions,
    default_model: model === '' ? null : model,
    default_mode: mode === '' ? null : (mode as TaskMode),
    default_approval_mode: approval === '' ? null : (approval as ApprovalMode),
  };
  const dirty =
    patch.name !== project.name ||
    patch.instructions !== project.instructions ||
    patch.default_model !== project.default_model ||
    patch.default_mode !== project.default_mode ||
    patch.default_approval_mode !== project.default_approval_mode;

  const submit = async () => {
    setState({ status: 'saving' });
    try {
      await save(project.id, patch);
      setState({ status: 'saved' });
    } catch (err) {
      setState({ status: 'failed', error: toErrorInfo(err) });
    }
  };

  return (
    <form
      className="settings-section project-form"
      aria-labelledby="project-settings-heading"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      data-testid="project-form"
    >
      <h2 id="project-settings-heading">{t('projects.settings')}</h2>
      <label className="form-row">
        <span className="form-label">{t('projects.name')}</span>
        <input className="input project-name-input" value={name} maxLength={200} required onChange={(e) => setName(e.target.value)} data-testid="project-name" />
      </label>
      <label className="project-instructions">
        <span className="form-label">{t('projects.instructions')}</span>
        <textarea
          className="input input-block project-instructions-input"
          value={instructions}
          maxLength={INSTRUCTIONS_MAX}
          rows={8}
          placeholder={t('projects.instructionsPlaceholder')}
          aria-describedby="project-instructions-note"
          onChange={(e) => setInstructions(e.target.value)}
          data-testid="project-instructions"
        />
        <span id="project-instructions-note" className="muted project-note">
          {t('projects.instructionsNote')}
        </span>
      </label>
      <label className="form-row">
        <span className="form-label">{t('projects.defaultModel')}</span>
        <select className="select" value={model} onChange={(e) => setModel(e.target.value)} data-testid="project-default-model">
          <DefaultModelOption defaultModel={defaultModel} profiles={profiles} />
          <ModelOptions profiles={chatProfiles} current={model} />
        </select>
      </label>
      <label className="form-row">
        <span className="form-label">{t('projects.defaultMode')}</span>
        <select className="select" value={mode} onChange={(e) => setMode(e.target.value)} data-testid="project-default-mode">
          <option value="">{t('projects.modeFromTask')}</option>
          {modes.map((m) => (
            <option key={m} value={m}>
              {t(`modes.${m}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="form-row">
        <span className="form-label">{t('chat.approvalMode')}</span>
        <select className="select" value={approval} onChange={(e) => setApproval(e.target.value)} data-testid="project-default-approval">
          <option value="">{t('projects.usualDefault')}</option>
          {approvalModes.map((m) => (
            <option key={m} value={m}>
              {t(`approvalModes.${m}`)}
            </option>
          ))}
        </select>
      </label>
      <div className="project-form-actions">
        <button type="submit" className="btn btn-primary btn-small" disabled={!dirty || patch.name === '' || state.status === 'saving'} data-testid="project-save">
          {state.status === 'saving' ? t('projects.saving') : t('common.save')}
        </button>
        {state.status === 'saved' && !dirty && (
          <span className="muted" role="status" data-testid="project-saved">
            {t('projects.saved')}
          </span>
        )}
        {dirty && state.status !== 'saving' && <span className="muted">{t('projects.unsaved')}</span>}
      </div>
      {state.status === 'failed' && (
        <div className="inline-error" role="alert" data-testid="project-save-error">
          <ErrorText error={state.error} />
        </div>
      )}
    </form>
  );
}
