// A streaming parser for the text/event-stream format (WHATWG HTML §9.2). We parse SSE ourselves
// because EventSource cannot send an Authorization header; chunks may split anywhere, even inside
// a CRLF pair, so the parser keeps the unfinished tail between pushes.

export interface SseMessage {
  event: string;
  data: string;
  /** The last event id seen on the stream so far (ids persist across messages, per the spec). */
  id: string;
}

export class SseParser {
  private buffer = '';
  private dataLines: string[] = [];
  private eventType = '';
  private lastEventId = '';
  /** A chunk ended with '\r': if the next one starts with '\n' it belongs to the same line break. */
  private pendingCr = false;

  constructor(initialLastEventId = '') {
    this.lastEventId = initialLastEventId;
  }

  get lastId(): string {
    return this.lastEventId;
  }

  push(chunk: string): SseMessage[] {
    let text = chunk;
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    const out: SseMessage[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const ch = this.buffer[i];
      if (ch !== '\n' && ch !== '\r') continue;
      const line = this.buffer.slice(start, i);
      if (ch === '\r') {
        if (i + 1 === this.buffer.length) this.pendingCr = true;
        else if (this.buffer[i + 1] === '\n') i++;
      }
      start = i + 1;
      const message = this.processLine(line);
      if (message) out.push(message);
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  private processLine(line: string): SseMessage | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null; // comment, used as keep-alive ping
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.dataLines.push(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      default:
        break; // `retry` and unknown fields: our reconnect policy is our own
    }
    return null;
  }

  private dispatch(): SseMessage | null {
    const hasData = this.dataLines.length > 0;
    const message: SseMessage = { event: this.eventType || 'message', data: this.dataLines.join('\n'), id: this.lastEventId };
    this.dataLines = [];
    this.eventType = '';
    return hasData ? message : null;
  }
}
