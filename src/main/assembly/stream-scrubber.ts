// A run's text reaches its subscribers a few characters at a time, so a secret the model echoes may
// arrive split across deltas, where no single delta holds it. The run's scrubber compiles the
// secrets once and holds back, per stream, the tail a match could still reach into (the longest
// encoded form of any secret); the tail is released, scrubbed, when the text goes on far enough,
// when another kind of event comes (a tool call, the message's end) and when the run ends.
import type { RunEventBody } from '../../shared/contract';
import { MCP_REDACTED } from '../../shared/contract/mcp';
import { compileSecrets, scrubDeep, type CompiledSecrets } from '../net/secret-scrub';

type Delta = Extract<RunEventBody, { type: 'text_delta' | 'reasoning_delta' }>;

const isDelta = (event: RunEventBody): event is Delta => event.type === 'text_delta' || event.type === 'reasoning_delta';
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** One stream's text: what is safe to show now, and the tail a secret could still span. */
export class HeldTextScrubber {
  private held = '';
  constructor(private readonly secrets: CompiledSecrets) {}

  /** The text (with what was held) no match can still reach into, scrubbed; the rest is held. */
  push(delta: string): string {
    const text = this.held + delta;
    // A match starting before `cut` ends inside `text`: every character of it has arrived.
    const cut = Math.max(0, text.length - (this.secrets.longest - 1));
    const { pattern } = this.secrets;
    pattern.lastIndex = 0;
    let out = '';
    let from = 0;
    for (let m = pattern.exec(text); m !== null && m.index < cut; m = pattern.exec(text)) {
      out += text.slice(from, m.index) + MCP_REDACTED;
      from = m.index + m[0].length;
      if (m[0].length === 0) pattern.lastIndex += 1;
    }
    let end = Math.max(cut, from);
    // Never split a surrogate pair between what is shown and what is held.
    if (end > from && end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    this.held = text.slice(end);
    return out + text.slice(from, end);
  }

  /** Everything held, scrubbed; the stream starts afresh. */
  flush(): string {
    const rest = this.held;
    this.held = '';
    return rest === '' ? '' : rest.replace(this.secrets.pattern, MCP_REDACTED);
  }
}

/**
 * Every event of the run, scrubbed on its way to subscribers and the event log. Each delta in
 * gives one delta out (its text may be shorter, or empty, while a tail is held): the last one is
 * kept back a step, so the held tail joins it when its stream ends.
 */
export async function* scrubbedEvents<R>(events: AsyncGenerator<RunEventBody, R>, secrets: readonly string[]): AsyncGenerator<RunEventBody, R> {
  const compiled = compileSecrets(secrets);
  if (!compiled) return yield* events;
  const streams = { text_delta: new HeldTextScrubber(compiled), reasoning_delta: new HeldTextScrubber(compiled) };
  let last: Delta | null = null;
  /** The kept-back delta with its stream's held tail; only its stream ever holds text. */
  const release = (): Delta | null => {
    if (!last) return null;
    const out: Delta = { ...last, delta: last.delta + streams[last.type].flush() };
    last = null;
    return out;
  };
  try {
    for (;;) {
      let next: IteratorResult<RunEventBody, R>;
      try {
        next = await events.next();
      } catch (err) {
        const out = release();
        if (out) yield out;
        throw err;
      }
      if (next.done) {
        const out = release();
        if (out) yield out;
        return next.value;
      }
      const event = next.value;
      if (isDelta(event)) {
        const previous: Delta | null = last && last.type !== event.type ? release() : last;
        if (previous) yield previous;
        last = { ...event, delta: streams[event.type].push(event.delta) };
        continue;
      }
      const out = release();
      if (out) yield out;
      yield scrubDeep(event, secrets);
    }
  } finally {
    // A consumer that stops early (a cancel) closes the run's generator too, so its cleanup runs.
    await events.return(undefined as R);
  }
}
