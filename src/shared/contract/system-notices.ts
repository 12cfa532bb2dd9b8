// Notices the service itself adds to a task (a `system` message). Stored as data, not prose: each
// screen words them in the person's own language and formats the dates for their locale. A system
// message whose content is not one of these (older notes, plain text) is shown as written.
import { z } from 'zod';

export const SystemNotice = z.discriminatedUnion('notice', [
  /** The task was archived after `idle_days` without use; its files go at `purge_at` (epoch ms), or never (null). */
  z.object({ notice: z.literal('task_archived'), idle_days: z.number().int().positive(), purge_at: z.number().int().nullable() }),
  /** The archived task's files were removed; it had been archived at `archived_at` (epoch ms). */
  z.object({ notice: z.literal('task_files_purged'), archived_at: z.number().int() }),
]);
export type SystemNotice = z.infer<typeof SystemNotice>;

/** The content a system message stores for a notice. */
export function systemNoticeContent(notice: SystemNotice): string {
  return JSON.stringify(SystemNotice.parse(notice));
}

/** The notice a system message holds, or null when its content is plain text. */
export function parseSystemNotice(content: string): SystemNotice | null {
  if (!content.startsWith('{')) return null;
  try {
    const parsed = SystemNotice.safeParse(JSON.parse(content));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
