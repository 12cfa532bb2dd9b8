// One of a task's settings as a labelled select: the label (hidden in the header's one row, read by
// screen readers), the select, and the task updated with what the chosen value means.
import type { ReactNode } from 'react';
import { type TaskPatch, useTasks } from '../state/tasks-store';

interface TaskSelectProps {
  taskId: string;
  label: string;
  value: string;
  /** The change to the task a chosen value makes. */
  patch: (value: string) => TaskPatch;
  title?: string;
  testId: string;
  children: ReactNode;
}

export function TaskSelect({ taskId, label, value, patch, title, testId, children }: TaskSelectProps) {
  const update = useTasks((s) => s.update);
  return (
    <label className="control">
      <span className="control-label">{label}</span>
      <select className="select" value={value} onChange={(e) => void update(taskId, patch(e.target.value))} title={title} data-testid={testId}>
        {children}
      </select>
    </label>
  );
}
