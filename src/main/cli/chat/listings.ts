// What the chat lists as lines of the log: the task table /resume picks from, the model profiles
// /model shows, and a resumed task's latest messages. Pure, so the controller only fetches and says.
import type { Message, ModelProfileInfo, Task } from '../../../shared/contract';
import { shorten, type NewItem } from './screen';

/** The /resume table under its `pick.columns` heading: number, id, status, mode, updated, title. */
export function taskRows(tasks: Task[]): NewItem[] {
  return tasks.map((t, i): NewItem => {
    const when = new Date(t.updated_at).toISOString().slice(0, 16).replace('T', ' ');
    const cells = [String(i + 1).padEnd(3), t.id.padEnd(24), t.status.padEnd(10), t.mode.padEnd(9), when.padEnd(17), shorten(t.title || '-', 60)];
    return { kind: 'text', text: cells.join(' '), tone: 'info' };
  });
}

/** The /model list: `*` the current model, `✓` a key present or none needed; worker models dimmed. */
export function modelRows(profiles: ModelProfileInfo[], current: string | null): NewItem[] {
  return profiles.map((p): NewItem => {
    const mark = p.id === current ? '*' : ' ';
    const usable = p.has_key || p.api_key_env === null ? '✓' : ' ';
    return { kind: 'text', text: `${mark} ${usable} ${p.id.padEnd(28)} ${p.name}`, tone: p.role === 'worker' ? 'dim' : 'info' };
  });
}

/** A resumed task's messages as the log shows them (an assistant message with only tool calls shows nothing). */
export function historyItems(messages: Message[]): NewItem[] {
  return messages.flatMap((m): NewItem[] => {
    if (m.role === 'user') return [{ kind: 'user', text: m.content }];
    if (m.role === 'assistant' && m.content.trim() !== '') return [{ kind: 'assistant', text: m.content }];
    if (m.role === 'tool') return [{ kind: 'tool_result', name: m.name ?? 'tool', summary: shorten(m.content), isError: m.is_error }];
    return [];
  });
}
