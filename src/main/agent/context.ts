// Building the model's view of a task from the persisted conversation: tool outputs are capped,
// and when the conversation nears the profile's reliable context, older tool outputs are compacted.
// Compaction only changes what is sent; the store keeps every message whole.
import type { Message } from '../../shared/contract';
import type { ChatMessageParam } from '../llm/types';
import { normalizeToolOrder } from './conversation-shape';

export const MODEL_TOOL_RESULT_CAP = 16_000;
export const UI_PREVIEW_CAP = 400;
/** Compact when the estimate passes this share of reliable_context, down to the lower share. */
const COMPACT_HIGH = 0.8;
const COMPACT_LOW = 0.6;
/** Tool outputs of the most recent turns are never compacted: the model is working with them. */
const KEEP_RECENT_TOOL_MESSAGES = 6;

export function capForModel(content: string, cap = MODEL_TOOL_RESULT_CAP): string {
  if (content.length <= cap) return content;
  const more = content.length - cap;
  return `${content.slice(0, cap)}\n\n[truncated: ${more} more characters; use offset/limit (or read the file) to see the rest]`;
}

export function previewForUi(content: string): { preview: string; truncated: boolean } {
  if (content.length <= UI_PREVIEW_CAP) return { preview: content, truncated: false };
  return { preview: content.slice(0, UI_PREVIEW_CAP), truncated: true };
}

const CJK = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]/g;

/** A cheap token estimate: CJK characters ~1 token each, other text ~4 characters per token. */
export function estimateTokens(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  return Math.ceil(cjk + (text.length - cjk) / 4);
}

/** Estimates per message: messages are immutable once stored, so each is measured once. */
const estimates = new WeakMap<Message, number>();
function estimateMessage(m: Message): number {
  let n = estimates.get(m);
  if (n === undefined) {
    n = estimateTokens(m.role === 'tool' ? capForModel(m.content) : m.content) + (m.tool_calls ? estimateTokens(JSON.stringify(m.tool_calls)) : 0);
    estimates.set(m, n);
  }
  return n;
}

export interface BuiltContext {
  messages: ChatMessageParam[];
  estimatedTokens: number;
  compacted: { messages: number; removedTokens: number } | null;
}

/** Sent (never stored) after a reply that was cut off, so the next turn finishes it. */
export const CONTINUE_CUT_OFF = 'Your previous reply was cut off before it finished. Continue it exactly where it stopped, without repeating what is already written.';

export function buildContext(systemPrompt: string, history: Message[], reliableContext: number): BuiltContext {
  const messages: ChatMessageParam[] = [{ role: 'system', content: systemPrompt }];
  for (const m of history) {
    if (m.role === 'system') continue;
    if (m.role === 'tool') {
      messages.push({ role: 'tool', content: capForModel(m.content), tool_call_id: m.tool_call_id ?? '', name: m.name ?? undefined });
    } else if (m.role === 'assistant') {
      messages.push({
        role: 'assistant',
        content: m.content,
        reasoning: m.reasoning,
        tool_calls: m.tool_calls && m.tool_calls.length > 0 ? m.tool_calls : undefined,
      });
    } else {
      messages.push({ role: 'user', content: m.content });
    }
  }
  const last = history.at(-1);
  if (last?.role === 'assistant' && last.is_error && !last.tool_calls?.length) messages.push({ role: 'user', content: CONTINUE_CUT_OFF });
  const ordered = normalizeToolOrder(messages);
  messages.length = 0;
  messages.push(...ordered);
  let estimate = estimateTokens(systemPrompt);
  for (const m of history) if (m.role !== 'system') estimate += estimateMessage(m);
  if (estimate <= reliableContext * COMPACT_HIGH) return { messages, estimatedTokens: estimate, compacted: null };

  const toolIndexes = messages.flatMap((m, i) => (m.role === 'tool' ? [i] : []));
  const compactable = toolIndexes.slice(0, Math.max(0, toolIndexes.length - KEEP_RECENT_TOOL_MESSAGES));
  let count = 0;
  let removed = 0;
  for (const i of compactable) {
    if (estimate <= reliableContext * COMPACT_LOW) break;
    const m = messages[i];
    const before = estimateTokens(m.content);
    const stub = `[earlier output of ${m.name ?? 'a tool'} compacted to save context (${m.content.length} characters); run the tool again if you need it]`;
    if (before <= estimateTokens(stub)) continue;
    messages[i] = { ...m, content: stub };
    const saved = before - estimateTokens(stub);
    estimate -= saved;
    removed += saved;
    count++;
  }
  return { messages, estimatedTokens: estimate, compacted: count > 0 ? { messages: count, removedTokens: removed } : null };
}
