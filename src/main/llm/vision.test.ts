import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FolioError } from '../../shared/errors';
import { fakeProfile } from '../../../testing/fake-openai/fake-profile';
import { startFakeOpenAI, type FakeOpenAI } from '../../../testing/fake-openai/server';
import { describeImages, toDataUrl, type VisionRequest } from './vision';

const KEY = 'sk-vision-secret-wxyz9876';
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 9]);
const request: VisionRequest = { prompt: 'Transcribe this page.', images: [{ mime: 'image/png', data: PNG }] };
const fast = { baseDelayMs: 5, outbound: null };

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

function body(i = -1): Record<string, unknown> {
  const b = fake.requests.at(i)?.body;
  if (typeof b !== 'object' || b === null) throw new Error('no recorded body');
  return b as Record<string, unknown>;
}

async function failure(p: Promise<unknown>): Promise<FolioError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof FolioError) return err;
    throw err;
  }
  throw new Error('expected a failure');
}

describe('describeImages', () => {
  it('sends one non-streaming user message with the prompt and the images as data URLs, and returns text and usage', async () => {
    fake.script([{ text: '第一页文字', usage: { prompt: 850, completion: 12 } }]);
    const result = await describeImages(
      fakeProfile(fake.url, { vision: true }),
      KEY,
      { prompt: 'Transcribe.', images: [{ mime: 'image/png', data: PNG }, { mime: 'image/jpeg', data: JPEG }] },
      new AbortController().signal,
      fast,
    );
    expect(result).toEqual({ text: '第一页文字', usage: { promptTokens: 850, completionTokens: 12 } });

    const sent = body();
    expect(sent.stream).toBe(false);
    expect(sent).not.toHaveProperty('stream_options');
    expect(sent.model).toBe('fake-model');
    expect(sent.max_tokens).toBe(4096);
    expect(sent.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Transcribe.' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from(PNG).toString('base64')}` } },
          { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${Buffer.from(JPEG).toString('base64')}` } },
        ],
      },
    ]);
    expect(fake.requests[0]?.authLast4).toBe('9876');
  });

  it('switches thinking off on toggle profiles and asks reasoning models for their lowest effort', async () => {
    fake.script([{ text: 'a' }, { text: 'b' }]);
    const signal = new AbortController().signal;
    await describeImages(fakeProfile(fake.url, { thinking_mode: 'toggle', thinking_param: 'enable_thinking', extra_body: { top_p: 0.5 } }), KEY, request, signal, fast);
    expect(body(0).enable_thinking).toBe(false);
    expect(body(0).top_p).toBe(0.5);
    await describeImages(
      fakeProfile(fake.url, {
        thinking_mode: 'always',
        reasoning_effort_levels: ['minimal', 'low', 'medium'],
        max_tokens_param: 'max_completion_tokens',
        max_output: 100_000,
      }),
      KEY,
      request,
      signal,
      fast,
    );
    expect(body(1).reasoning_effort).toBe('minimal');
    expect(body(1).max_completion_tokens).toBe(16_384);
    expect(body(1)).not.toHaveProperty('max_tokens');
  });

  it('retries a 429 and a 500, then succeeds', async () => {
    fake.script([{ fault: 'status', status: 429, retryAfterMs: 1 }, { fault: 'status', status: 500 }, { text: 'ok' }]);
    const result = await describeImages(fakeProfile(fake.url), KEY, request, new AbortController().signal, fast);
    expect(result.text).toBe('ok');
    expect(fake.requests).toHaveLength(3);
  });

  it('gives up after maxRetries with a typed error', async () => {
    fake.script([{ fault: 'status', status: 503 }, { fault: 'status', status: 503 }, { text: 'never' }]);
    const err = await failure(describeImages(fakeProfile(fake.url), KEY, request, new AbortController().signal, { ...fast, maxRetries: 1 }));
    expect(err.code).toBe('provider_error');
    expect(err.message).toContain('503');
    expect(fake.requests).toHaveLength(2);
  });

  it('reports a rejected key (401) at once, without the key, even when the provider echoes it', async () => {
    fake.script([{ fault: 'status', status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } }]);
    const err = await failure(describeImages(fakeProfile(fake.url), KEY, request, new AbortController().signal, fast));
    expect(err.code).toBe('provider_error');
    expect(err.message).toContain('rejected the API key (401)');
    expect(err.message).toContain('fake.main');
    expect(err.message).not.toContain(KEY);
    expect(fake.requests).toHaveLength(1);
  });

  it('does not leak the key when a 400 message echoes it', async () => {
    fake.script([{ fault: 'status', status: 400, body: { error: { message: `image_url is not supported (key ${KEY})` } } }]);
    const err = await failure(describeImages(fakeProfile(fake.url), KEY, request, new AbortController().signal, fast));
    expect(err.message).toContain('image_url is not supported');
    expect(err.message).not.toContain(KEY);
  });

  it('treats an empty answer as a provider error', async () => {
    fake.script([{ text: '   ', finishReason: 'length' }]);
    const err = await failure(describeImages(fakeProfile(fake.url), KEY, request, new AbortController().signal, fast));
    expect(err.code).toBe('provider_error');
    expect(err.message).toContain('output limit');
  });

  it('is cancelled by the signal, before and during a call', async () => {
    const aborted = new AbortController();
    aborted.abort();
    expect((await failure(describeImages(fakeProfile(fake.url), KEY, request, aborted.signal, fast))).code).toBe('cancelled');
    expect(fake.requests).toHaveLength(0);

    fake.script([{ fault: 'stall' }]);
    const controller = new AbortController();
    const pending = describeImages(fakeProfile(fake.url), KEY, request, controller.signal, fast);
    setTimeout(() => controller.abort(), 50);
    expect((await failure(pending)).code).toBe('cancelled');
  });

  it('refuses a request without images', async () => {
    const err = await failure(describeImages(fakeProfile(fake.url), KEY, { prompt: 'x', images: [] }, new AbortController().signal, fast));
    expect(err.code).toBe('invalid_input');
  });

  it('encodes a sub-array view without the bytes around it', () => {
    const backing = new Uint8Array([0, 0, 0x89, 0x50, 0x4e, 0x47, 7, 7]);
    expect(toDataUrl({ mime: 'image/png', data: backing.subarray(2, 6) })).toBe(`data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64')}`);
  });
});
