// The sidebar's Projects section: which tasks the list shows (all, outside every project,
// one project's), creating, renaming, archiving and deleting projects, and the personal library.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Project } from '../../shared/contract';
import { PERSONAL_LIBRARY } from '../../shared/contract/library-id';
import { useApp } from '../state/app-store';
import { useProjects } from '../state/projects-store';
import { type ProjectScope, scopeProjectId, useTasks } from '../state/tasks-store';
import { ConfirmDialog } from './ConfirmDialog';
import { Icon } from './Icon';
import { RenameInput } from './TaskItem';
import { plainT } from '../i18n/plain';

export function ProjectsNav() {
  const { t } = useTranslation();
  const projects = useProjects((s) => s.projects);
  const create = useProjects((s) => s.create);
  const openPersonal = useProjects((s) => s.openPersonalLibrary);
  const page = useProjects((s) => s.page);
  const scope = useTasks((s) => s.project);
  const setProject = useTasks((s) => s.setProject);
  const view = useApp((s) => s.view);
  const setView = useApp((s) => s.setView);
  const [creating, setCreating] = useState(false);
  const [showArchived, setShowArchived] = useState(false);
  const active = projects.filter((p) => !p.archived);
  const archived = projects.filter((p) => p.archived);

  const pickScope = (next: ProjectScope) => {
    setProject(next);
    if (view === 'project') setView('chat');
  };

  return (
    <nav className="project-nav" aria-label={plainT('projects.heading')} data-testid="project-nav">
      <div className="project-nav-header">
        <span className="project-nav-title">{t('projects.heading')}</span>
        <button
          type="button"
          className="icon-btn"
          title={plainT('projects.new')}
          aria-label={plainT('projects.new')}
          onClick={() => setCreating(true)}
          data-testid="project-new"
        >
          <Icon name="plus" size={14} />
        </button>
      </div>
      <ul className="project-list">
        {creating && (
          <li className="project-item">
            <RenameInput
              initial=""
              label={plainT('projects.newName')}
              testId="project-new-name"
              onDone={(value) => {
                setCreating(false);
                if (value !== null && value.trim() !== '') void create(value.trim());
              }}
            />
          </li>
        )}
        <ScopeRow label={t('projects.allTasks')} pressed={scope === 'all'} onClick={() => pickScope('all')} testId="project-scope-all" />
        <ScopeRow label={t('projects.noProject')} pressed={scope === 'none'} onClick={() => pickScope('none')} testId="project-scope-none" />
        {active.map((p) => (
          <ProjectRow key={p.id} project={p} selected={scopeProjectId(scope) === p.id} />
        ))}
        {showArchived && archived.map((p) => <ProjectRow key={p.id} project={p} selected={scopeProjectId(scope) === p.id} />)}
        <li className="project-item">
          <button
            type="button"
            className="project-main"
            aria-current={view === 'project' && page === PERSONAL_LIBRARY ? 'page' : undefined}
            onClick={openPersonal}
            data-testid="personal-library"
          >
            <Icon name="library" size={14} />
            <span className="project-name">{t('library.personal')}</span>
          </button>
        </li>
      </ul>
      {archived.length > 0 && (
        <button type="button" className="link-btn project-archived-toggle" aria-expanded={showArchived} onClick={() => setShowArchived((v) => !v)} data-testid="project-show-archived">
          {showArchived ? t('projects.hideArchived') : t('projects.showArchived', { count: archived.length })}
        </button>
      )}
    </nav>
  );
}

function ScopeRow({ label, pressed, onClick, testId }: { label: string; pressed: boolean; onClick: () => void; testId: string }) {
  return (
    <li className={pressed ? 'project-item selected' : 'project-item'}>
      <button type="button" className="project-main" aria-pressed={pressed} onClick={onClick} data-testid={testId}>
        <span className="project-name">{label}</span>
      </button>
    </li>
  );
}

function ProjectRow({ project, selected }: { project: Project; selected: boolean }) {
  const { t } = useTranslation();
  const open = useProjects((s) => s.open);
  const update = useProjects((s) => s.update);
  const remove = useProjects((s) => s.remove);
  const [renaming, setRenaming] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!menuOpen) return;
    const close = (e: MouseEvent) => {
      if (!menuRef.current?.contains(e.target as Node)) setMenuOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('mousedown', close);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('mousedown', close);
      window.removeEventListener('keydown', onKey);
    };
  }, [menuOpen]);

  const act = (fn: () => void) => () => {
    setMenuOpen(false);
    fn();
  };

  return (
    <li className={selected ? 'project-item selected' : 'project-item'} data-testid="project-item" data-project-id={project.id} data-archived={project.archived}>
      {renaming ? (
        <RenameInput
          initial={project.name}
          label={plainT('projects.rename')}
          testId="project-rename-input"
          onDone={(value) => {
            setRenaming(false);
            if (value !== null && value.trim() !== '' && value.trim() !== project.name) void update(project.id, { name: value.trim() });
          }}
        />
      ) : (
        <button type="button" className="project-main" aria-pressed={selected} onClick={() => open(project.id)} data-testid="project-open">
          <span className="project-name">{project.name}</span>
          {project.archived && <span className="status-pill">{t('projects.archivedBadge')}</span>}
        </button>
      )}
      {!renaming && (
        <div className="task-actions" ref={menuRef}>
          <button
            type="button"
            className="icon-btn"
            title={plainT('projects.more')}
            aria-label={plainT('projects.moreNamed', { name: project.name })}
            aria-haspopup="menu"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen((v) => !v)}
            data-testid="project-menu"
          >
            <Icon name="more" size={14} />
          </button>
          {menuOpen && (
            <div className="menu task-menu" role="menu">
              <button type="button" role="menuitem" className="menu-item" onClick={act(() => setRenaming(true))} data-testid="project-rename">
                <Icon name="edit" size={14} />
                {t('projects.rename')}
              </button>
              <button
                type="button"
                role="menuitem"
                className="menu-item"
                onClick={act(() => void update(project.id, { archived: !project.archived }))}
                data-testid={project.archived ? 'project-unarchive' : 'project-archive'}
              >
                <Icon name={project.archived ? 'play' : 'stop'} size={14} />
                {project.archived ? t('projects.unarchive') : t('projects.archive')}
              </button>
              <div className="menu-separator" />
              <button type="button" role="menuitem" className="menu-item danger" onClick={act(() => setConfirming(true))} data-testid="project-delete">
                <Icon name="trash" size={14} />
                {t('projects.delete')}
              </button>
            </div>
          )}
        </div>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('projects.deleteTitle')}
          body={t('projects.deleteBody', { name: project.name })}
          confirmLabel={t('projects.delete')}
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void remove(project.id);
          }}
        />
      )}
    </li>
  );
}
