import { type KeyboardEvent as ReactKeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TaskMode } from '../../shared/contract';
import { useTasks } from '../state/tasks-store';
import { useApp } from '../state/app-store';
import { useLayout } from '../state/layout-store';
import { Icon } from './Icon';

const modes: TaskMode[] = ['ppt', 'proposal', 'coding', 'general'];

export function NewTaskMenu() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const create = useTasks((s) => s.create);
  const setView = useApp((s) => s.setView);
  const request = useLayout((s) => s.newTaskMenuRequest);

  // The new-task shortcut opens the menu with the first mode focused.
  useEffect(() => {
    if (request > 0) setOpen(true);
  }, [request]);

  // A menu opened from the keyboard or the shortcut takes the focus to its first item.
  useEffect(() => {
    if (open) menuRef.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
  }, [open, request]);

  const items = () => Array.from(menuRef.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? []);
  const onMenuKey = (e: ReactKeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    let next = -1;
    if (e.key === 'ArrowDown') next = (at + 1) % list.length;
    else if (e.key === 'ArrowUp') next = (at - 1 + list.length) % list.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = list.length - 1;
    else if (e.key === 'Tab') setOpen(false);
    if (next < 0) return;
    e.preventDefault();
    list[next]?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
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
        ref={buttonRef}
        type="button"
        className="btn btn-primary btn-block"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((v) => !v)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(true);
          }
        }}
        data-testid="new-task"
      >
        <Icon name="plus" />
        {t('tasks.new')}
      </button>
      {open && (
        <div className="menu new-task-menu" role="menu" aria-labelledby="new-task-menu-heading" ref={menuRef} onKeyDown={onMenuKey} data-testid="new-task-menu">
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
