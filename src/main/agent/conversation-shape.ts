// OpenAI-compatible APIs accept a conversation only in one shape: an assistant message with tool
// calls is followed at once by one tool message per call. Interruptions (a stop mid-tool, a cancel
// while an approval waits, a new message instead of Continue) can leave calls unanswered; these
// helpers find them and put every result where the providers expect it.
import type { Message, ToolCall } from '../../shared/contract';
import type { ChatMessageParam } from '../llm/types';

export { NOT_RUN_NEW_MESSAGE, NOT_RUN_REPLACED } from '../../shared/tool-outcome';
const MISSING_RESULT = 'No result was recorded for this call (it was interrupted).';

/** Tool calls that have no tool message anywhere in the history, in order, each with the message that made it. */
export function unansweredToolCalls(history: readonly Message[]): (ToolCall & { message_id: string })[] {
  const answered = new Set(history.flatMap((m) => (m.role === 'tool' && m.tool_call_id ? [m.tool_call_id] : [])));
  return history.flatMap((m) => (m.role === 'assistant' && m.tool_calls ? m.tool_calls.filter((c) => !answered.has(c.id)).map((c) => ({ ...c, message_id: m.id })) : []));
}

/**
 * Reorders request messages so each assistant's tool results directly follow it (in call order),
 * stubs results that are missing, and drops tool messages that answer no call.
 */
export function normalizeToolOrder(messages: ChatMessageParam[]): ChatMessageParam[] {
  const results = new Map<string, ChatMessageParam>();
  for (const m of messages) if (m.role === 'tool' && m.tool_call_id) results.set(m.tool_call_id, m);
  const out: ChatMessageParam[] = [];
  for (const m of messages) {
    if (m.role === 'tool') continue;
    out.push(m);
    if (m.role !== 'assistant' || !m.tool_calls?.length) continue;
    for (const call of m.tool_calls) {
      out.push(results.get(call.id) ?? { role: 'tool', content: MISSING_RESULT, tool_call_id: call.id, name: call.name });
    }
  }
  return out;
}
