// The task list as static HTML, for the page `folio serve` answers when it is opened with its token
// (the first open: the app takes the token out of the address). The rows are those
// public/early-requests.js draws from its own early request on a reload: the sidebar's classes and
// heights, titles as text, nothing clickable. React's first commit replaces them at the same pixels
// (components/early-task-row.test.tsx holds both copies to TaskItem's row). The meta line holds no
// text, only its height (sidebar.css): each font size or weight a frame draws costs a look-up in the
// browser process, tens of milliseconds before the first frame on this machine (bench/README.md).

/** What a drawn row needs of a task. */
export interface FirstPaintTask {
  title: string;
  mode: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/gu, (c) => ESCAPES[c]);
}

function row(task: FirstPaintTask): string {
  // An untitled task's name is the app's to word: a blank keeps the row's height till then.
  const title = task.title.trim() === '' ? '&nbsp;' : escapeHtml(task.title.trim());
  return (
    '<li class="task-item"><div class="task-main"><span class="task-title-row">' +
    `<span class="mode-dot mode-${escapeHtml(task.mode)}"></span><span class="task-title">${title}</span>` +
    '</span><span class="task-meta"></span></div></li>'
  );
}

/** The app's frame with the sidebar's task list, for the empty `#root`. */
export function firstPaintTaskListHtml(tasks: readonly FirstPaintTask[]): string {
  return (
    '<div class="app first-paint" aria-busy="true"><aside class="sidebar">' +
    '<div class="sidebar-header"><span class="brand">Folio</span></div>' +
    '<div class="sidebar-controls first-paint-controls"></div><div class="first-paint-projects"></div>' +
    `<ul class="task-list">${tasks.map(row).join('')}</ul></aside><main class="welcome"></main></div>`
  );
}
