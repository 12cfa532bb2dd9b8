// Server-sent events from a provider's streamed completion, decoded per network read. The SDK's own
// reader copies the rest of its buffer once per event, so a read holding hundreds of events (a
// fast provider, or a consumer that fell behind) costs time quadratic in its size; this decoder
// keeps one text buffer and an offset, so each read costs time linear in its bytes.
// Framing per the HTML standard (event stream interpretation): lines end in \n, \r\n or \r; a
// blank line dispatches; `data:` lines join with \n; lines starting with ':' are comments.
import { loadedOpenAISdk } from './openai-client';

/** A line ending: `\r\n` first, so a CRLF is one ending, not a line and a blank line. */
const LINE_END = /\r\n|\r|\n/g;

export class ProviderSseDecoder {
  private readonly text = new TextDecoder();
  private buffer = '';
  private event: string | null = null;
  private data: string[] = [];
  /** `[DONE]` was seen: what follows is ignored, as the SDK does. */
  private finished = false;

  constructor(private readonly headers?: Headers) {}

  /** The JSON payloads completed by this read, in order. Throws APIError for an error event. */
  push(bytes: Uint8Array): unknown[] {
    this.buffer += this.text.decode(bytes, { stream: true });
    return this.drain(false);
  }

  /** Payloads left when the stream ends (a last event without its blank line still counts). */
  end(): unknown[] {
    this.buffer += this.text.decode();
    const out = this.drain(true);
    if (this.data.length > 0 || this.event !== null) this.dispatch(out);
    return out;
  }

  private drain(atEnd: boolean): unknown[] {
    const out: unknown[] = [];
    const buffer = this.buffer;
    let start = 0;
    LINE_END.lastIndex = 0;
    for (let m = LINE_END.exec(buffer); m !== null; m = LINE_END.exec(buffer)) {
      // A \r at the very end may be the first half of a \r\n that the next read completes.
      if (!atEnd && m[0] === '\r' && m.index === buffer.length - 1) break;
      this.line(buffer.slice(start, m.index), out);
      start = m.index + m[0].length;
    }
    if (atEnd && start < buffer.length) {
      this.line(buffer.slice(start), out);
      start = buffer.length;
    }
    this.buffer = start === 0 ? buffer : buffer.slice(start);
    return out;
  }

  private line(line: string, out: unknown[]): void {
    if (line === '') {
      this.dispatch(out);
      return;
    }
    if (line.charCodeAt(0) === 58 /* ':' */) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32 /* ' ' */) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
  }

  private dispatch(out: unknown[]): void {
    const event = this.event;
    const data = this.data.length === 1 ? this.data[0] : this.data.join('\n');
    this.event = null;
    this.data = [];
    if (this.finished || data === '') return;
    if (data.startsWith('[DONE]')) {
      this.finished = true;
      return;
    }
    const payload: unknown = JSON.parse(data);
    // In-stream errors become the SDK's APIError, so they are classified like an HTTP error.
    if (isRecord(payload) && payload.error) throw apiError(payload.error, this.headers);
    if (event === 'error') throw apiError(isRecord(payload) && isRecord(payload.error) ? payload.error : undefined, this.headers);
    out.push(payload);
  }
}

/**
 * The SDK's APIError, from the SDK the request was made with: it is loaded at the first model call
 * (openai-client.ts), never at start-up, so this module must not import it.
 */
function apiError(error: unknown, headers: Headers | null | undefined): Error {
  const sdk = loadedOpenAISdk();
  if (!sdk) throw new Error('The openai SDK is not loaded: decode a provider stream only after a request made with it.');
  return new sdk.APIError(undefined, error as object | undefined, undefined, headers ?? new Headers());
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
