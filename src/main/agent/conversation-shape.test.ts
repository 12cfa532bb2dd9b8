import { describe, expect, it } from 'vitest';
import type { Message } from '../../shared/contract';
import { conversationShapeError } from '../../../testing/fake-openai/server';
import { normalizeToolOrder, unansweredToolCalls } from './conversation-shape';
import type { ChatMessageParam } from '../llm/types';

const msg = (m: Partial<Message> & Pick<Message, 'role'>): Message => ({
  id: Math.random().toString(36).slice(2),
  task_id: 't',
  run_id: null,
  seq: 0,
  content: '',
  reasoning: null,
  tool_calls: null,
  tool_call_id: null,
  is_error: false,
  name: null,
  created_at: 0,
  ...m,
});

describe('conversation shape', () => {
  it('finds calls without results', () => {
    const history = [
      msg({ role: 'user', content: 'go' }),
      msg({ role: 'assistant', tool_calls: [{ id: 'a', name: 'read', arguments: '{}' }, { id: 'b', name: 'write', arguments: '{}' }] }),
      msg({ role: 'tool', tool_call_id: 'a', content: 'ok' }),
    ];
    expect(unansweredToolCalls(history).map((c) => c.id)).toEqual(['b']);
  });

  it('moves results next to their calls, stubs missing ones and drops orphans, so the provider rule holds', () => {
    const messages: ChatMessageParam[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'a', name: 'read', arguments: '{}' }, { id: 'b', name: 'write', arguments: '{}' }] },
      { role: 'user', content: 'new message' },
      { role: 'tool', content: 'late result', tool_call_id: 'a' },
      { role: 'tool', content: 'orphan', tool_call_id: 'zzz' },
    ];
    const wire = (list: ChatMessageParam[]) =>
      list.map((m) => ({ ...m, tool_calls: m.tool_calls?.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) }));
    expect(conversationShapeError(wire(messages))).not.toBeNull();
    const fixed = normalizeToolOrder(messages);
    expect(fixed.map((m) => `${m.role}:${m.tool_call_id ?? ''}`)).toEqual(['system:', 'user:', 'assistant:', 'tool:a', 'tool:b', 'user:']);
    expect(fixed[3].content).toBe('late result');
    expect(conversationShapeError(wire(fixed))).toBeNull();
  });
});
