import { useTranslation } from 'react-i18next';
import type { TaskMode } from '../../shared/contract';
import { useTasks } from '../state/tasks-store';
import { useApp } from '../state/app-store';
import { useLayout } from '../state/layout-store';
import { Icon } from './Icon';
import { useMenu } from './menu/use-menu';

const modes: TaskMode[] = ['ppt', 'proposal', 'coding', 'general'];

export function NewTaskMenu() {
  const { t } = useTranslation();
  const create = useTasks((s) => s.create);
  const setView = useApp((s) => s.setView);
  // The new-task shortcut opens the menu with the first mode focused.
  const request = useLayout((s) => s.newTaskMenuRequest);
  const menu = useMenu({ openRequest: request });

  const pick = async (mode: TaskMode) => {
    menu.close();
    const task = await create(mode);
    if (task) setView('chat');
  };

  return (
    <div className="new-task" {...menu.rootProps}>
      <button {...menu.buttonProps} type="button" className="btn btn-primary btn-block" aria-haspopup="menu" data-testid="new-task">
        <Icon name="plus" />
        {t('tasks.new')}
      </button>
      {menu.open && (
        <div className="menu new-task-menu" role="menu" aria-labelledby="new-task-menu-heading" {...menu.menuProps} data-testid="new-task-menu">
          <div className="menu-heading" id="new-task-menu-heading" role="presentation">
            {t('tasks.pickMode')}
          </div>
          {modes.map((mode) => (
            <button
              key={mode}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="menu-item menu-item-rich"
              onClick={() => void pick(mode)}
              data-testid={`new-task-mode-${mode}`}
            >
              <span className={`mode-dot mode-${mode}`} />
              <span>
                <span className="menu-item-title">{t(`modes.${mode}`)}</span>
                <span className="menu-item-hint">{t(`modes.${mode}Hint`)}</span>
              </span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
