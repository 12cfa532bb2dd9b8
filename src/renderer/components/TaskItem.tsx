import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Task, TaskStatus } from '../../shared/contract';
import { formatTaskCost, formatTokens } from '../lib/format';
import { useTasks } from '../state/tasks-store';
import { useApp } from '../state/app-store';
import { useProjects } from '../state/projects-store';
import { ConfirmDialog } from './ConfirmDialog';
import { Icon } from './Icon';
import { MoveToProjectDialog } from './MoveToProjectDialog';
import { plainT, usePlainT } from '../i18n/plain';

export function TaskItem({ task, selected }: { task: Task; selected: boolean }) {
  const { t, i18n } = useTranslation();
  const select = useTasks((s) => s.select);
  const update = useTasks((s) => s.update);
  const remove = useTasks((s) => s.remove);
  const setView = useApp((s) => s.setView);
  const [renaming, setRenaming] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [moving, setMoving] = useState(false);
  const projects = useProjects((s) => s.projects);
  // The list of one project's tasks needn't name it on every row.
  const showProject = useTasks((s) => s.project === 'all');
  const projectName = task.project_id === null ? null : (projects.find((p) => p.id === task.project_id)?.name ?? null);
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!menuOpen) return;
    const close = (e: MouseEvent) => {
      if (!menuRef.current?.contains(e.target as Node)) setMenuOpen(false);
    };
    window.addEventListener('mousedown', close);
    return () => window.removeEventListener('mousedown', close);
  }, [menuOpen]);

  const tokens = task.prompt_tokens + task.completion_tokens;
  const profiles = useApp((s) => s.profiles);
  const defaultModel = useApp((s) => s.settings?.default_model ?? null);
  const cost = formatTaskCost(task, profiles, defaultModel, i18n.language);
  const title = task.title.trim() || t('tasks.untitled');

  const setStatus = (status: TaskStatus) => {
    setMenuOpen(false);
    void update(task.id, { status });
  };

  const open = () => {
    select(task.id);
    setView('chat');
  };

  return (
    <li
      className={selected ? 'task-item selected' : 'task-item'}
      aria-current={selected ? 'true' : undefined}
      data-testid="task-item"
      data-task-id={task.id}
      data-status={task.status}
    >
      {renaming ? (
        <RenameInput
          initial={task.title}
          onDone={(value) => {
            setRenaming(false);
            if (value !== null && value.trim() !== task.title) void update(task.id, { title: value.trim() });
          }}
        />
      ) : (
        <button type="button" className="task-main" onClick={open} onDoubleClick={() => setRenaming(true)}>
          <span className="task-title-row">
            <span className={`mode-dot mode-${task.mode}`} title={plainT(`modes.${task.mode}`)} />
            <span className="task-title" data-testid="task-title">
              {title}
            </span>
          </span>
          <span className="task-meta">
            <span>{t(`modes.${task.mode}`)}</span>
            {showProject && projectName !== null && (
              <span className="task-project" title={plainT('projects.inProject', { name: projectName })} data-testid="task-project">
                {projectName}
              </span>
            )}
            {task.status !== 'active' && <span className={`status-pill status-${task.status}`}>{t(`status.${task.status}`)}</span>}
            {tokens > 0 && (
              <span className="task-usage" data-dynamic title={plainT('usage.tooltip', { prompt: task.prompt_tokens, completion: task.completion_tokens })}>
                {cost === null ? t('usage.tokensOnly', { tokens: formatTokens(tokens) }) : t('usage.short', { tokens: formatTokens(tokens), cost })}
              </span>
            )}
          </span>
        </button>
      )}
      {!renaming && (
        <div className="task-actions" ref={menuRef}>
          <button type="button" className="icon-btn" title={plainT('tasks.rename')} aria-label={plainT('tasks.rename')} onClick={() => setRenaming(true)} data-testid="task-rename">
            <Icon name="edit" size={14} />
          </button>
          <button
            type="button"
            className="icon-btn"
            title={plainT('tasks.more')}
            aria-label={plainT('tasks.more')}
            aria-haspopup="menu"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen((v) => !v)}
            data-testid="task-menu"
          >
            <Icon name="more" size={14} />
          </button>
          {menuOpen && (
            <div className="menu task-menu" role="menu">
              {task.status !== 'completed' && (
                <button type="button" role="menuitem" className="menu-item" onClick={() => setStatus('completed')} data-testid="task-complete">
                  <Icon name="check" size={14} />
                  {t('tasks.markDone')}
                </button>
              )}
              {task.status !== 'abandoned' && (
                <button type="button" role="menuitem" className="menu-item" onClick={() => setStatus('abandoned')} data-testid="task-abandon">
                  <Icon name="close" size={14} />
                  {t('tasks.abandon')}
                </button>
              )}
              {task.status !== 'active' && (
                <button type="button" role="menuitem" className="menu-item" onClick={() => setStatus('active')} data-testid="task-reactivate">
                  <Icon name="play" size={14} />
                  {t('tasks.reactivate')}
                </button>
              )}
              <button
                type="button"
                role="menuitem"
                className="menu-item"
                onClick={() => {
                  setMenuOpen(false);
                  setMoving(true);
                }}
                data-testid="task-move"
              >
                <Icon name="chevron" size={14} />
                {t('projects.moveToProject')}
              </button>
              <div className="menu-separator" />
              <button
                type="button"
                role="menuitem"
                className="menu-item danger"
                onClick={() => {
                  setMenuOpen(false);
                  setConfirming(true);
                }}
                data-testid="task-delete"
              >
                <Icon name="trash" size={14} />
                {t('tasks.delete')}
              </button>
            </div>
          )}
        </div>
      )}
      {moving && (
        <MoveToProjectDialog
          task={task}
          projects={projects}
          onCancel={() => setMoving(false)}
          onMove={(projectId) => {
            setMoving(false);
            void update(task.id, { project_id: projectId });
          }}
        />
      )}
      {confirming && (
        <ConfirmDialog
          title={t('tasks.deleteTitle')}
          body={t('tasks.deleteBody', { title })}
          confirmLabel={t('tasks.delete')}
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void remove(task.id);
          }}
        />
      )}
    </li>
  );
}

export function RenameInput({ initial, onDone, label, testId }: { initial: string; onDone: (value: string | null) => void; label?: string; testId?: string }) {
  const plainT = usePlainT();
  const [value, setValue] = useState(initial);
  const done = useRef(false);
  const finish = (result: string | null) => {
    if (done.current) return; // Enter then blur would otherwise save twice
    done.current = true;
    onDone(result);
  };
  return (
    <input
      className="input rename-input"
      autoFocus
      value={value}
      maxLength={200}
      aria-label={label ?? plainT('tasks.rename')}
      onChange={(e) => setValue(e.target.value)}
      onFocus={(e) => e.target.select()}
      onBlur={() => finish(value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && !e.nativeEvent.isComposing) finish(value);
        if (e.key === 'Escape') finish(null);
      }}
      data-testid={testId ?? 'task-rename-input'}
    />
  );
}
