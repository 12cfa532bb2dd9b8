// One non-streaming multimodal call: a prompt and some images in, the model's text out. Used by the
// `ocr` tool; the agent loop's streaming ChatModel stays text-only. Failures are classified and
// retried exactly like the chat model's (provider-errors), and the key never appears in an error.
import type { ChatCompletion, ChatCompletionContentPart, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { FolioError } from '../../shared/errors';
import type { ModelProfile } from '../models/profile-schema';
import { backoffDelay, classifyFailure, type ErrorContext } from './provider-errors';
import { buildRequestBody } from './request-params';
import { cancelled, sleep } from './openai-chat-model';
import { createOpenAIClient } from './openai-client';
import type { OutboundAudit } from '../net/outbound-audit';

export type VisionImageMime = 'image/png' | 'image/jpeg';

export interface VisionImage {
  mime: VisionImageMime;
  data: Uint8Array;
}

export interface VisionRequest {
  prompt: string;
  images: VisionImage[];
}

export interface VisionResult {
  text: string;
  usage: { promptTokens: number; completionTokens: number };
}

export interface VisionOptions {
  fetch?: typeof fetch;
  /** Who the requests are charged to (the team service's audit rows); null on the desktop. */
  outbound: OutboundAudit | null;
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** First backoff step; doubles per retry, with jitter. Default 1 s. */
  baseDelayMs?: number;
  /** One attempt may take this long: a dense page can take a minute to transcribe. Default 120 s. */
  timeoutMs?: number;
  /** Output tokens per call. Default: the profile's max_output, capped at 16,384. */
  maxOutput?: number;
}

const MAX_OUTPUT_CAP = 16_384;
/** Image tokens are provider-specific; this only matters when a provider reports no usage. */
const TOKENS_PER_IMAGE_GUESS = 1000;

export async function describeImages(
  profile: ModelProfile,
  apiKey: string,
  request: VisionRequest,
  signal: AbortSignal,
  opts: VisionOptions,
): Promise<VisionResult> {
  if (request.images.length === 0) throw new FolioError('invalid_input', 'describeImages needs at least one image');
  const maxRetries = opts.maxRetries ?? 3;
  const baseDelayMs = opts.baseDelayMs ?? 1000;
  const client = await createOpenAIClient(profile, apiKey, { timeoutMs: opts.timeoutMs ?? 120_000, fetch: opts.fetch, outbound: opts.outbound });
  const errorContext: ErrorContext = { profileId: profile.id, apiBase: profile.api_base, apiKey };
  const body = buildVisionBody(profile, request, opts.maxOutput);

  for (let retry = 0; ; retry++) {
    if (signal.aborted) throw cancelled(profile.id);
    let completion: ChatCompletion;
    try {
      completion = await client.chat.completions.create(body, { signal });
    } catch (err) {
      if (signal.aborted) throw cancelled(profile.id);
      const verdict = classifyFailure(err, errorContext);
      if (!verdict.retryable || retry >= maxRetries) throw verdict.final;
      await sleep(verdict.retryAfterMs ?? backoffDelay(retry + 1, baseDelayMs), signal, profile.id);
      continue;
    }
    return toResult(profile, request, completion);
  }
}

/**
 * The profile's usual request (model, token limit, extra_body) with thinking switched off and the
 * lowest reasoning effort: transcription needs eyes, not deliberation, and reasoning tokens cost.
 */
export function buildVisionBody(profile: ModelProfile, request: VisionRequest, maxOutput?: number): ChatCompletionCreateParamsNonStreaming {
  const base = buildRequestBody(profile, {
    messages: [],
    thinking: false,
    ...(profile.reasoning_effort_levels[0] === undefined ? {} : { reasoningEffort: profile.reasoning_effort_levels[0] }),
    maxOutput: maxOutput ?? Math.min(profile.max_output, MAX_OUTPUT_CAP),
  });
  const content: ChatCompletionContentPart[] = [
    { type: 'text', text: request.prompt },
    ...request.images.map((image): ChatCompletionContentPart => ({ type: 'image_url', image_url: { url: toDataUrl(image) } })),
  ];
  const body: Record<string, unknown> = { ...base, stream: false, messages: [{ role: 'user', content }] };
  delete body.stream_options;
  return body as unknown as ChatCompletionCreateParamsNonStreaming;
}

export function toDataUrl(image: VisionImage): string {
  return `data:${image.mime};base64,${Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength).toString('base64')}`;
}

function toResult(profile: ModelProfile, request: VisionRequest, completion: ChatCompletion): VisionResult {
  const choice = completion.choices[0];
  const text = typeof choice?.message.content === 'string' ? choice.message.content : '';
  if (text.trim() === '') {
    const why = choice?.finish_reason === 'length' ? ' (the output limit was reached before any text)' : choice?.message.refusal ? ` (refused: ${choice.message.refusal.slice(0, 200)})` : '';
    throw new FolioError('provider_error', `${profile.id} returned no text for the image${why}`);
  }
  const usage = completion.usage
    ? { promptTokens: completion.usage.prompt_tokens, completionTokens: completion.usage.completion_tokens }
    : { promptTokens: Math.ceil(request.prompt.length / 4) + TOKENS_PER_IMAGE_GUESS * request.images.length, completionTokens: Math.ceil(text.length / 4) };
  return { text, usage };
}

