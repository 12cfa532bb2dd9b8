// A conversation held in memory: the loop's tests and the loop benchmark use it to measure and
// exercise the loop alone, without the store.
import type { Message, ToolCall } from '../../shared/contract';
import type { ConversationPort } from './loop';

export function createMemoryConversation(initial: Message[] = []) {
  const messages: Message[] = [...initial];
  const push = (m: Partial<Message> & Pick<Message, 'role' | 'content'>): Message => {
    const full: Message = {
      id: `m${messages.length + 1}`,
      task_id: 't1',
      run_id: 'r1',
      seq: messages.length + 1,
      reasoning: null,
      tool_calls: null,
      tool_call_id: null,
      is_error: false,
      name: null,
      created_at: Date.now(),
      ...m,
    };
    messages.push(full);
    return full;
  };
  const port: ConversationPort = {
    history: () => messages,
    appendAssistant: ({ incomplete, ...m }: { content: string; reasoning: string | null; tool_calls: ToolCall[] | null; incomplete?: boolean }) =>
      Promise.resolve(push({ role: 'assistant', ...m, is_error: incomplete === true })),
    appendToolResult: (m: { tool_call_id: string; name: string; content: string; is_error: boolean }) => Promise.resolve(push({ role: 'tool', ...m })),
  };
  return { messages, push, port };
}
