// "Move to project…": pick a project, or none, for a task.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Project, Task } from '../../shared/contract';
import { plainT } from '../i18n/plain';

interface MoveToProjectDialogProps {
  task: Pick<Task, 'title' | 'project_id'>;
  /** Every project; archived ones are offered only when the task is already in one. */
  projects: readonly Project[];
  onMove: (projectId: string | null) => void;
  onCancel: () => void;
}

export function MoveToProjectDialog({ task, projects, onMove, onCancel }: MoveToProjectDialogProps) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<string>(task.project_id ?? '');
  const firstRef = useRef<HTMLInputElement>(null);
  const choices = projects.filter((p) => !p.archived || p.id === task.project_id);

  useEffect(() => {
    firstRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onCancel();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onCancel]);

  const target = choice === '' ? null : choice;
  return (
    <div className="modal-backdrop" onMouseDown={onCancel}>
      <form
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="move-title"
        data-testid="move-dialog"
        onMouseDown={(e) => e.stopPropagation()}
        onSubmit={(e) => {
          e.preventDefault();
          onMove(target);
        }}
      >
        <h2 id="move-title" className="modal-title">
          {t('projects.moveTitle', { title: task.title.trim() || t('tasks.untitled') })}
        </h2>
        <fieldset className="move-choices" aria-label={plainT('projects.heading')}>
          <label className="move-choice">
            <input ref={firstRef} type="radio" name="move-project" value="" checked={choice === ''} onChange={() => setChoice('')} data-testid="move-choice-none" />
            {t('projects.noProject')}
          </label>
          {choices.map((p) => (
            <label key={p.id} className="move-choice">
              <input type="radio" name="move-project" value={p.id} checked={choice === p.id} onChange={() => setChoice(p.id)} data-testid="move-choice" data-project-id={p.id} />
              {p.name}
            </label>
          ))}
          {choices.length === 0 && <p className="muted">{t('projects.noneYet')}</p>}
        </fieldset>
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onCancel} data-testid="move-cancel">
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={target === task.project_id} data-testid="move-ok">
            {t('projects.move')}
          </button>
        </div>
      </form>
    </div>
  );
}
