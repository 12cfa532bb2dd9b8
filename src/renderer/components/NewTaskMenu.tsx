import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TaskMode } from '../../shared/contract';
import { useTasks } from '../state/tasks-store';
import { useApp } from '../state/app-store';
import { Icon } from './Icon';

const modes: TaskMode[] = ['ppt', 'proposal', 'coding', 'general'];

export function NewTaskMenu() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const create = useTasks((s) => s.create);
  const setView = useApp((s) => s.setView);

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    window.addEventListener('mousedown', close);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('mousedown', close);
      window.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const pick = async (mode: TaskMode) => {
    setOpen(false);
    const task = await create(mode);
    if (task) setView('chat');
  };

  return (
    <div className="new-task" ref={ref}>
      <button
        type="button"
        className="btn btn-primary btn-block"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((v) => !v)}
        data-testid="new-task"
      >
        <Icon name="plus" />
        {t('tasks.new')}
      </button>
      {open && (
        <div className="menu new-task-menu" role="menu" data-testid="new-task-menu">
          <div className="menu-heading">{t('tasks.pickMode')}</div>
          {modes.map((mode) => (
            <button
              key={mode}
              type="button"
              role="menuitem"
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
