import { APIError } from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOpenAISdk } from './openai-client';
import { ProviderSseDecoder } from './sse-decoder';

// The decoder raises the SDK's APIError from the SDK a request has loaded, as the model client has.
beforeAll(async () => {
  await loadOpenAISdk();
});

const bytes = (s: string) => new TextEncoder().encode(s);

/** Feeds `text` split at every given offset and returns all payloads. */
function decodeSplit(text: string, cuts: number[]): unknown[] {
  const all = bytes(text);
  const decoder = new ProviderSseDecoder();
  const out: unknown[] = [];
  let from = 0;
  for (const cut of [...cuts, all.length]) {
    out.push(...decoder.push(all.subarray(from, cut)));
    from = cut;
  }
  out.push(...decoder.end());
  return out;
}

describe('ProviderSseDecoder', () => {
  const stream = 'data: {"a":1}\n\n: keep-alive comment\n\ndata: {"b":"中文"}\n\ndata: [DONE]\n\n';

  it('decodes every event of one read, skipping comments and stopping at [DONE]', () => {
    expect(decodeSplit(stream, [])).toEqual([{ a: 1 }, { b: '中文' }]);
  });

  it('gives the same events however the bytes are split (inside lines, CRLFs and UTF-8 sequences)', () => {
    const crlf = stream.replace(/\n/g, '\r\n');
    const length = bytes(crlf).length;
    for (let cut = 1; cut < length; cut++) {
      expect(decodeSplit(crlf, [cut])).toEqual([{ a: 1 }, { b: '中文' }]);
      expect(decodeSplit(stream, [Math.min(cut, bytes(stream).length - 1)])).toEqual([{ a: 1 }, { b: '中文' }]);
    }
  });

  it('accepts bare CR line endings, joins multi-line data and dispatches a last event without its blank line', () => {
    expect(decodeSplit('data: {"x":\rdata: 2}\r\rdata:{"y":3}', [])).toEqual([{ x: 2 }, { y: 3 }]);
  });

  it('ignores what follows [DONE]', () => {
    expect(decodeSplit('data: [DONE]\n\ndata: {"late":true}\n\n', [])).toEqual([]);
  });

  it('turns an in-stream error into the SDK error type', () => {
    const decoder = new ProviderSseDecoder();
    expect(() => decoder.push(bytes('data: {"error":{"message":"overloaded"}}\n\n'))).toThrow(APIError);
    expect(() => new ProviderSseDecoder().push(bytes('event: error\ndata: {"message":"x"}\n\n'))).toThrow(APIError);
  });
});
