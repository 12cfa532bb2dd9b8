// Where a task's files live: <data>/tasks/<id>/{source,work,artifacts}. Folders are created lazily,
// on the first message or file (a task nobody used leaves nothing on disk).
import { mkdirSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FileKind } from '../../shared/contract';

export const TASK_SUBFOLDERS = { source: 'source', work: 'work', artifact: 'artifacts' } as const satisfies Record<FileKind, string>;

export function taskDir(dataDir: string, taskId: string): string {
  return join(dataDir, 'tasks', taskId);
}

export function ensureTaskDir(dataDir: string, taskId: string): string {
  const dir = taskDir(dataDir, taskId);
  for (const sub of Object.values(TASK_SUBFOLDERS)) mkdirSync(join(dir, sub), { recursive: true });
  return dir;
}

export function taskDirExists(dataDir: string, taskId: string): boolean {
  return existsSync(taskDir(dataDir, taskId));
}

export function removeTaskDir(dataDir: string, taskId: string): void {
  rmSync(taskDir(dataDir, taskId), { recursive: true, force: true });
}

/** The kind of a task-relative path, from its first segment. */
export function kindOfPath(relPath: string): FileKind {
  const first = relPath.split('/')[0];
  if (first === TASK_SUBFOLDERS.source) return 'source';
  if (first === TASK_SUBFOLDERS.artifact) return 'artifact';
  return 'work';
}

/** `<data>/templates`: the imported .pptx/.potx templates render_deck can use. */
export function templatesDir(dataDir: string): string {
  return join(dataDir, 'templates');
}

/** `<data>/themes`: the person's own deck themes. */
export function themesDir(dataDir: string): string {
  return join(dataDir, 'themes');
}

/** `projects/<id>` in the data folder: a project's own settings on disk (its approval rules); its library is under `library/`. */
export function projectFolder(projectId: string): string {
  return `projects/${projectId}`;
}

export function projectDir(dataDir: string, projectId: string): string {
  return join(dataDir, projectFolder(projectId));
}
