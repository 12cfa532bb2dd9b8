// Turns a profile's declared capabilities and a ChatRequest into an OpenAI-compatible request body.
// Fields a provider may not know are sent only when the profile says the provider wants them.
import type { ModelProfile } from '../models/profile-schema';
import { planReasoning } from '../models/reasoning';
import type { ChatMessageParam, ChatRequest } from './types';

export type RequestProfile = Pick<
  ModelProfile,
  | 'model'
  | 'max_output'
  | 'temperature'
  | 'parallel_tools'
  | 'thinking_mode'
  | 'thinking_param'
  | 'reasoning_effort_levels'
  | 'reasoning_effort'
  | 'max_tokens_param'
  | 'extra_body'
  | 'reasoning_effort_for'
>;

export function buildRequestBody(profile: RequestProfile, request: ChatRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: profile.model,
    messages: toOpenAIMessages(profile, request.messages),
    temperature: profile.temperature,
    [profile.max_tokens_param]: request.maxOutput ?? profile.max_output,
    stream: true,
    stream_options: { include_usage: true },
  };

  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body.tools = tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
    // Not every provider knows `parallel_tool_calls`; it is sent only where the profile vouches for it.
    if (profile.parallel_tools) body.parallel_tool_calls = true;
  }

  // A task's reasoning setting becomes the switch and the effort its profile declares; a profile that
  // cannot reason gets nothing (the run tells the person once, see planReasoning's `applied`).
  const plan = request.reasoning ? planReasoning(profile, request.reasoning) : null;
  const thinking = plan?.thinking ?? request.thinking;
  const effortOverride = plan?.effort ?? request.reasoningEffort;

  // `thinking` unset on a toggle profile means "provider default": nothing is sent.
  if (profile.thinking_mode === 'toggle' && thinking !== undefined) {
    if (profile.thinking_param === 'enable_thinking') body.enable_thinking = thinking;
    else body.thinking = { type: thinking ? 'enabled' : 'disabled' };
  }

  const thinkingOff = profile.thinking_mode === 'none' || (profile.thinking_mode === 'toggle' && thinking === false);
  if (profile.reasoning_effort_levels.length > 0 && !thinkingOff) {
    const effort = effortOverride ?? profile.reasoning_effort;
    if (effort !== null) body.reasoning_effort = effort;
  }

  return { ...body, ...profile.extra_body };
}

/**
 * Maps the loop's messages to the wire shape. Reasoning is echoed as `reasoning_content` only for
 * thinking profiles and only on assistant messages after the last user message: DeepSeek's thinking
 * mode requires it back within a tool-call turn and recommends dropping it from earlier turns.
 */
export function toOpenAIMessages(profile: Pick<ModelProfile, 'thinking_mode'>, messages: ChatMessageParam[]): Record<string, unknown>[] {
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') lastUser = i;
  });
  return messages.map((m, i) => {
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: m.content };
      case 'tool':
        return { role: 'tool', tool_call_id: m.tool_call_id ?? '', content: m.content };
      case 'assistant': {
        const out: Record<string, unknown> = { role: 'assistant', content: m.content };
        if (m.tool_calls && m.tool_calls.length > 0) {
          out.tool_calls = m.tool_calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
        }
        if (profile.thinking_mode !== 'none' && i > lastUser && m.reasoning) out.reasoning_content = m.reasoning;
        return out;
      }
    }
  });
}
