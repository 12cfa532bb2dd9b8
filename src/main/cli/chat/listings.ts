// What the chat lists as lines of the log: the task table /resume picks from, the model profiles
// /model shows, and a resumed task's latest messages. Pure, so the controller only fetches and says.
// Modes, statuses and models are named as the app names them, in the screen's language, each padded
// to its column by the cells it takes on screen.
import type { Message, ModelProfileInfo, Task } from '../../../shared/contract';
import { modelLabel } from '../../../shared/model-names';
import { padCells } from '../cli-messages';
import type { Translate } from './i18n';
import { resultOutcome, shorten, type NewItem } from './screen';

type Profile = Pick<ModelProfileInfo, 'id' | 'name' | 'provider' | 'model'>;

/** The /resume table under its `pick.columns` heading: number, id, status, mode, updated, title. */
export function taskRows(tasks: Task[]): NewItem[] {
  return tasks.map((task, i): NewItem => {
    const when = new Date(task.updated_at).toISOString().slice(0, 16).replace('T', ' ');
    return {
      kind: 'notice',
      key: 'pick.row',
      vars: { number: String(i + 1).padEnd(3), id: task.id.padEnd(24), when: when.padEnd(17), title: shorten(task.title || '-', 60) },
      worded: (t) => ({ status: padCells(t(`status.${task.status}`), 10), mode: padCells(t(`modes.${task.mode}`), 9) }),
      tone: 'info',
    };
  });
}

/** A model by the name the app gives it, among the loaded profiles. */
export function wordedModel(id: string, profiles: readonly Profile[]): (t: Translate) => Record<string, string> {
  return (t) => ({ model: modelLabel(id, profiles, t) });
}

/** The /model list: `*` the current model, `✓` a key present or none needed; its name, then the id /model takes; worker models dimmed. */
export function modelRows(profiles: ModelProfileInfo[], current: string | null): NewItem[] {
  return profiles.map((p): NewItem => {
    const mark = p.id === current ? '*' : ' ';
    const usable = p.has_key || p.api_key_env === null ? '✓' : ' ';
    return {
      kind: 'notice',
      key: 'model.row',
      vars: { mark, usable, id: p.id },
      worded: (t) => ({ model: padCells(modelLabel(p.id, profiles, t), 30) }),
      tone: p.role === 'worker' ? 'dim' : 'info',
    };
  });
}

/** A resumed task's messages as the log shows them (an assistant message with only tool calls shows nothing). */
export function historyItems(messages: Message[]): NewItem[] {
  // Providers reuse call ids across turns: a result belongs to the latest call of its id before it.
  const calls = new Map<string, string>();
  return messages.flatMap((m): NewItem[] => {
    for (const call of m.tool_calls ?? []) calls.set(call.id, call.arguments);
    if (m.role === 'user') return [{ kind: 'user', text: m.content }];
    if (m.role === 'assistant' && m.content.trim() !== '') return [{ kind: 'assistant', text: m.content }];
    if (m.role === 'tool') {
      const name = m.name ?? 'tool';
      const said = { name, arguments: (m.tool_call_id && calls.get(m.tool_call_id)) || '{}', outcome: resultOutcome(undefined, m.is_error, m.content), preview: m.content };
      return [{ kind: 'tool_result', name, said, preview: shorten(m.content), isError: m.is_error }];
    }
    return [];
  });
}
