// The seam between the agent loop and any OpenAI-compatible provider. The loop never sees the SDK.
import type { ReasoningMode, RetryCause, ToolCall } from '../../shared/contract';

export interface ChatMessageParam {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Assistant reasoning kept for providers that want it echoed back (DeepSeek thinking mode). */
  reasoning?: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  name?: string;
}

export interface ToolSchema {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ChatRequest {
  messages: ChatMessageParam[];
  tools?: ToolSchema[];
  /** Overrides; otherwise derived from the profile's capabilities. */
  reasoningEffort?: string;
  thinking?: boolean;
  maxOutput?: number;
  /** The task's reasoning setting, mapped by the profile's capabilities; wins over thinking/reasoningEffort. */
  reasoning?: ReasoningMode | null;
}

/** What a streaming chat call yields, in order: deltas, possibly `retry`, then exactly one `done`. */
export type ChatStreamEvent =
  | { type: 'text'; delta: string }
  | { type: 'reasoning'; delta: string }
  /** The attempt failed after (or before) partial output; everything streamed so far is void. */
  | { type: 'retry'; attempt: number; reason: string; cause?: RetryCause; delayMs: number }
  | {
      type: 'done';
      content: string;
      reasoning: string | null;
      toolCalls: ToolCall[];
      finishReason: string | null;
      usage: { promptTokens: number; completionTokens: number };
    };

export interface ChatModel {
  /** Streams one assistant turn, retrying 429/5xx/stalls internally. Throws FolioError on final failure or abort. */
  stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatStreamEvent>;
}
