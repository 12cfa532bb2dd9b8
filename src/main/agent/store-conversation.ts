// The conversation a run works on, backed by the store. History is read once when the run starts
// and then kept in step with every append: only one run is active per task, so nothing else
// writes to it meanwhile, and re-reading the whole history every turn made long runs O(n²).
import type { Message } from '../../shared/contract';
import type { StorePort } from '../store/port';
import type { ConversationPort } from './loop';

export async function createStoreConversation(store: StorePort, taskId: string, runId: string, newId: (prefix: string) => string): Promise<ConversationPort> {
  const history: Message[] = await store.messages.all(taskId);
  const add = (m: Message) => {
    history.push(m);
    return m;
  };
  return {
    history: () => history,
    appendAssistant: async ({ incomplete, ...m }) =>
      add(await store.messages.append({ id: newId('m'), task_id: taskId, run_id: runId, role: 'assistant', ...m, is_error: incomplete === true })),
    appendToolResult: async (m) =>
      add(
        await store.messages.append({
          id: newId('m'),
          task_id: taskId,
          run_id: runId,
          role: 'tool',
          content: m.content,
          tool_call_id: m.tool_call_id,
          name: m.name,
          is_error: m.is_error,
        }),
      ),
  };
}
