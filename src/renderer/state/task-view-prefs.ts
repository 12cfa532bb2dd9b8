// Small per-task view choices kept in the browser's storage (they are the person's view, not the
// task's data): whether the outline panel is collapsed, and the composer's unsent draft.
const PREFIX = 'folio.task.';

function read(key: string): string | null {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, value);
  } catch {
    // Storage full or unavailable: the choice lasts for this page only.
  }
}

/**
 * Whether the outline panel starts collapsed: the person's last choice for this task, else open while
 * the outline waits for approval and collapsed once approved (the chat then has the run's questions).
 */
export function outlineCollapsed(taskId: string, status: 'proposed' | 'approved'): boolean {
  const kept = read(`${taskId}.outline`);
  if (kept === `${status}:collapsed`) return true;
  if (kept === `${status}:open`) return false;
  return status === 'approved';
}

/** Remembers the choice for the outline in this status; a new status (re-proposed, approved) starts from its default. */
export function rememberOutlineCollapsed(taskId: string, status: 'proposed' | 'approved', collapsed: boolean): void {
  write(`${taskId}.outline`, `${status}:${collapsed ? 'collapsed' : 'open'}`);
}

export function savedDraft(taskId: string): string {
  return read(`${taskId}.draft`) ?? '';
}

export function saveDraft(taskId: string, text: string): void {
  write(`${taskId}.draft`, text.trim() === '' ? null : text);
}
