// The chat header's overflow menu: the task's less-used settings (its project, the reasoning
// setting), so the header's controls keep to one row beside the model, approvals, network, MCP and
// grants even with the right panel open. The project, when set, is also shown by the title.
import { useTranslation } from 'react-i18next';
import type { Task } from '../../shared/contract';
import { useProjects } from '../state/projects-store';
import { Icon } from './Icon';
import { useMenu } from './menu/use-menu';
import { ReasoningControl } from './ReasoningControl';
import { TaskSelect } from './TaskSelect';
import { plainT } from '../i18n/plain';

export function TaskOptionsMenu({ task }: { task: Task }) {
  const { t } = useTranslation();
  const menu = useMenu();
  const label = t('chat.moreOptions');
  return (
    <div className="control mcp-menu" {...menu.rootProps}>
      <button {...menu.buttonProps} type="button" className="icon-btn" aria-haspopup="true" aria-label={plainT('chat.moreOptions')} title={plainT('chat.moreOptions')} data-testid="task-options">
        <Icon name="more" />
      </button>
      {menu.open && (
        <div className="menu mcp-menu-popover task-options" {...menu.menuProps} data-testid="task-options-popover">
          <div className="menu-heading">{label}</div>
          <ProjectPicker task={task} />
          <ReasoningControl task={task} />
        </div>
      )}
    </div>
  );
}

function ProjectPicker({ task }: { task: Task }) {
  const { t } = useTranslation();
  const projects = useProjects((s) => s.projects);
  // Archived projects are offered only to the task already in one.
  const choices = projects.filter((p) => !p.archived || p.id === task.project_id);
  return (
    <TaskSelect
      taskId={task.id}
      label={t('projects.project')}
      value={task.project_id ?? ''}
      patch={(value) => ({ project_id: value === '' ? null : value })}
      testId="task-project-picker"
    >
      <option value="">{t('projects.noProject')}</option>
      {choices.map((p) => (
        <option key={p.id} value={p.id}>
          {p.name}
        </option>
      ))}
    </TaskSelect>
  );
}
