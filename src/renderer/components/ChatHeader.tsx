import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApprovalMode, Task } from '../../shared/contract';
import { useArtifacts } from '../state/artifacts-store';
import { useProjects } from '../state/projects-store';
import { useTasks } from '../state/tasks-store';
import { McpMenu } from './McpMenu';
import { TaskGrantsMenu } from './TaskGrantsMenu';
import { TaskOptionsMenu } from './TaskOptionsMenu';
import { TaskSelect } from './TaskSelect';
import { WorkspaceFolder } from './WorkspaceFolder';
import { panelShown, useLayout } from '../state/layout-store';
import { Icon } from './Icon';
import { PANEL_ID, PANEL_TOGGLE_ID } from './use-panel-drawer';
import { plainT, usePlainT } from '../i18n/plain';

const approvalModes: ApprovalMode[] = ['ask', 'auto-edit', 'auto'];

export function ChatHeader({ task }: { task: Task }) {
  const { t } = useTranslation();
  const update = useTasks((s) => s.update);
  const project = useProjects((s) => (task.project_id ? s.projects.find((p) => p.id === task.project_id) : undefined));
  // The switch only means something where the sandbox can keep the network off.
  const sandboxed = useArtifacts((s) => s.capabilities?.sandbox ?? false);
  const loadCapabilities = useArtifacts((s) => s.loadCapabilities);
  useEffect(() => {
    void loadCapabilities();
  }, [loadCapabilities]);

  return (
    <>
      <header className="chat-header">
        <div className="chat-title-block">
          <h1 className="chat-title" data-testid="chat-title">
            {task.title.trim() || t('tasks.untitled')}
          </h1>
          <span className={`badge mode-badge mode-${task.mode}`}>{t(`modes.${task.mode}`)}</span>
          {project && (
            <span className="badge project-badge" title={plainT('projects.project')} data-testid="task-project">
              {project.name}
            </span>
          )}
          {task.status !== 'active' && <span className={`status-pill status-${task.status}`}>{t(`status.${task.status}`)}</span>}
        </div>
        <div className="chat-controls">
          <TaskSelect
            taskId={task.id}
            label={t('chat.approvalMode')}
            value={task.approval_mode}
            patch={(value) => ({ approval_mode: value as ApprovalMode })}
            title={plainT(`approvalModes.${task.approval_mode}Hint`)}
            testId="approval-mode-picker"
          >
            {approvalModes.map((mode) => (
              <option key={mode} value={mode}>
                {t(`approvalModes.${mode}`)}
              </option>
            ))}
          </TaskSelect>
          {sandboxed && (
            <label className="control control-check" title={plainT('chat.allowNetworkHint')}>
              <input
                type="checkbox"
                checked={task.allow_network}
                onChange={(e) => void update(task.id, { allow_network: e.target.checked })}
                aria-label={plainT('chat.allowNetwork')}
                data-testid="allow-network"
              />
              <span className="control-label">{t('chat.network')}</span>
            </label>
          )}
          <McpMenu task={task} />
          <TaskGrantsMenu taskId={task.id} />
          <TaskOptionsMenu task={task} />
          <PanelToggle />
        </div>
      </header>
      {task.mode === 'coding' && <WorkspaceFolder task={task} />}
    </>
  );
}

/** Shows or hides the right panel (files and results). */
function PanelToggle() {
  const plainT = usePlainT();
  const shown = useLayout(panelShown);
  const toggle = useLayout((s) => s.togglePanel);
  const label = shown ? plainT('layout.hidePanel') : plainT('layout.showPanel');
  return (
    <button type="button" className="icon-btn" onClick={toggle} aria-label={label} title={label} aria-expanded={shown} aria-controls={PANEL_ID} id={PANEL_TOGGLE_ID} data-testid="panel-toggle">
      <Icon name="panel" />
    </button>
  );
}
