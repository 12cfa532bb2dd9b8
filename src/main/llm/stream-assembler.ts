// Folds OpenAI-compatible stream chunks into deltas for the UI and one finished assistant turn.
// Chunks are read as `unknown` and narrowed: providers add fields (reasoning_content, reasoning)
// the SDK's types don't know, and omit ones they do.
import type { ToolCall } from '../../shared/contract';
import type { ChatStreamEvent } from './types';

type DoneEvent = Extract<ChatStreamEvent, { type: 'done' }>;
type DeltaEvent = Extract<ChatStreamEvent, { type: 'text' | 'reasoning' }>;

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

export class StreamAssembler {
  private content = '';
  private reasoning = '';
  private readonly calls: PartialCall[] = [];
  private finishReason: string | null = null;
  private usage: { promptTokens: number; completionTokens: number } | null = null;

  /** Whether the provider said the turn is complete; a stream that ends without it was cut off. */
  get finished(): boolean {
    return this.finishReason !== null;
  }

  push(chunk: unknown): DeltaEvent[] {
    const events: DeltaEvent[] = [];
    if (!isRecord(chunk)) return events;
    const usage = chunk.usage;
    if (isRecord(usage) && typeof usage.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number') {
      this.usage = { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens };
    }
    const choices = Array.isArray(chunk.choices) ? (chunk.choices as unknown[]) : [];
    // Folio asks for one choice; anything else a provider sends is ignored.
    const choice = choices.find((c) => isRecord(c) && (c.index === undefined || c.index === 0));
    if (!isRecord(choice)) return events;
    const delta = isRecord(choice.delta) ? choice.delta : {};

    const reasoning = stringField(delta, 'reasoning_content') ?? stringField(delta, 'reasoning');
    if (reasoning) {
      this.reasoning += reasoning;
      events.push({ type: 'reasoning', delta: reasoning });
    }
    const text = stringField(delta, 'content');
    if (text) {
      this.content += text;
      events.push({ type: 'text', delta: text });
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const part of delta.tool_calls as unknown[]) if (isRecord(part)) this.pushToolCall(part);
    }
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') this.finishReason = choice.finish_reason;
    return events;
  }

  private pushToolCall(part: Record<string, unknown>): void {
    const fn = isRecord(part.function) ? part.function : {};
    const id = stringField(part, 'id');
    // Calls are keyed by `index`; a provider that omits it starts a new call whenever a new id appears.
    let index = typeof part.index === 'number' ? part.index : this.calls.length - 1;
    if (typeof part.index !== 'number' && (index < 0 || (id && this.calls[index]?.id && this.calls[index]?.id !== id))) index = this.calls.length;
    const call = (this.calls[index] ??= { id: '', name: '', arguments: '' });
    if (id) call.id = id;
    const name = stringField(fn, 'name');
    if (name) call.name += call.name === name ? '' : name;
    const args = stringField(fn, 'arguments');
    if (args) call.arguments += args;
  }

  /** The finished turn. Usage the provider did not report is estimated at ~4 characters per token. */
  done(promptChars: number): DoneEvent {
    const toolCalls: ToolCall[] = this.calls
      .filter((c) => c !== undefined && c.name !== '')
      .map((c, i) => ({ id: c.id || `call_${i}`, name: c.name, arguments: c.arguments === '' ? '{}' : c.arguments }));
    const outChars = this.content.length + this.reasoning.length + toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, 0);
    return {
      type: 'done',
      content: this.content,
      reasoning: this.reasoning === '' ? null : this.reasoning,
      toolCalls,
      finishReason: this.finishReason,
      usage: this.usage ?? { promptTokens: Math.ceil(promptChars / 4), completionTokens: Math.ceil(outChars / 4) },
    };
  }
}

function stringField(obj: Record<string, unknown>, key: string): string | undefined {
  const v = obj[key];
  return typeof v === 'string' ? v : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
