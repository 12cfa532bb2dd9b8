// One of a task's settings as a labelled select: the label (hidden where the select says what it holds,
// read by screen readers), the select, and the task updated with what the chosen value means.
import { type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import { type TaskPatch, useTasks } from '../state/tasks-store';

interface TaskSelectProps {
  taskId: string;
  label: string;
  value: string;
  /** The change to the task a chosen value makes. */
  patch: (value: string) => TaskPatch;
  /** The tooltip; given the chosen option's text, it can name it whole where the select cuts it. */
  title?: string | ((shown: string) => string);
  testId: string;
  /** A class for the label that holds the select, where one place styles it apart. */
  className?: string;
  children: ReactNode;
}

export function TaskSelect({ taskId, label, value, patch, title, testId, className, children }: TaskSelectProps) {
  const update = useTasks((s) => s.update);
  const shown = useShownText(value, children);
  return (
    <label className={className ? `control ${className}` : 'control'}>
      <span className="control-label">{label}</span>
      <select
        ref={shown.ref}
        className="select"
        value={value}
        onChange={(e) => void update(taskId, patch(e.target.value))}
        title={typeof title === 'function' ? title(shown.text) : title}
        data-testid={testId}
      >
        {children}
      </select>
    </label>
  );
}

/** The text of the option a select shows, read once its options are in the document. */
function useShownText(value: string, options: ReactNode) {
  const ref = useRef<HTMLSelectElement>(null);
  const [text, setText] = useState('');
  useLayoutEffect(() => {
    setText(ref.current?.selectedOptions[0]?.textContent ?? '');
  }, [value, options]);
  return { ref, text };
}
