// The personal library's id without zod: the renderer's first chunk (sidebar, project store) needs
// the value, and importing it from the contract's barrel pulled zod and every schema into that chunk.

/** The personal library's id wherever a library is named (`/v1/projects/personal/files`, hits). */
export const PERSONAL_LIBRARY = 'personal';

/**
 * The libraries a task's agent can search and read, in search order: its project's (when it is in
 * one) and the personal library. The task's files panel counts the same ones, so what it shows is
 * what the agent sees.
 */
export function librariesOfTask(projectId: string | null): string[] {
  return projectId === null ? [PERSONAL_LIBRARY] : [projectId, PERSONAL_LIBRARY];
}
