import { describe, expect, it } from 'vitest';
import type { RunEventBody } from '../../shared/contract';
import { scrubbedEvents } from './stream-scrubber';

const KEY = 'sk-live-4f9a2c7e1b3d5f60';

async function* source(events: RunEventBody[]): AsyncGenerator<RunEventBody, string> {
  for (const e of events) yield e;
  return 'done';
}

const text = (delta: string): RunEventBody => ({ type: 'text_delta', delta });
const reasoning = (delta: string): RunEventBody => ({ type: 'reasoning_delta', delta });

async function drain(events: RunEventBody[], secrets: readonly string[] = [KEY]): Promise<{ out: RunEventBody[]; result: string }> {
  const out: RunEventBody[] = [];
  const gen = scrubbedEvents(source(events), secrets);
  for (;;) {
    const next = await gen.next();
    if (next.done) return { out, result: next.value };
    out.push(next.value);
  }
}

const joined = (events: RunEventBody[], type = 'text_delta') => events.map((e) => ((e.type === 'text_delta' || e.type === 'reasoning_delta') && e.type === type ? e.delta : '')).join('');

describe('scrubbedEvents (the run stream scrubber)', () => {
  it('scrubs a key split across two deltas: no emitted delta, nor the stream joined, holds it', async () => {
    const { out } = await drain([text('Your key is sk-live-4f9a'), text('2c7e1b3d5f60, keep it safe.')]);
    expect(joined(out)).toBe('Your key is •••• , keep it safe.'.replace('•••• ', '••••'));
    for (const e of out) expect(JSON.stringify(e)).not.toContain('4f9a2c7e');
    expect(joined(out)).not.toContain(KEY);
  });

  it('scrubs a key split across three deltas, and its spread-out copy', async () => {
    const { out } = await drain([text('a sk-li'), text('ve-4f9a2c7e'), text('1b3d5f60 b '), ...[...KEY].map((c) => text(`${c} `))]);
    expect(joined(out)).not.toContain(KEY);
    expect(joined(out)).toMatch(/^a •••• b ••••\s*$/u);
    for (const e of out) expect(e.type === 'text_delta' && e.delta.includes('4f9a')).toBe(false);
  });

  it('gives one delta per delta and releases the held tail at run end', async () => {
    const deltas = ['The answer ', 'is forty', '-two, as ', 'computed.'];
    const { out, result } = await drain(deltas.map(text));
    expect(result).toBe('done');
    expect(out).toHaveLength(deltas.length);
    expect(joined(out)).toBe(deltas.join(''));
    // The last delta carries what was held back.
    expect(out.at(-1)).toEqual(text(expect.stringContaining('computed.') as unknown as string));
  });

  it('releases the held text before a tool call, and keeps the events\' order', async () => {
    const call: RunEventBody = { type: 'tool_call_started', call_id: 'c1', name: 'read_file' } as unknown as RunEventBody;
    const { out } = await drain([reasoning('thinking about it'), text('Let me read '), text('the file.'), call, text('Done.')]);
    expect(out.map((e) => e.type)).toEqual(['reasoning_delta', 'text_delta', 'text_delta', 'tool_call_started', 'text_delta']);
    expect(joined(out, 'reasoning_delta')).toBe('thinking about it');
    expect(joined(out.slice(0, 3))).toBe('Let me read the file.');
    expect(joined(out.slice(4))).toBe('Done.');
  });

  it('changes nothing when no secret occurs (same events, same text)', async () => {
    const events = Array.from({ length: 50 }, (_, i) => text(`chunk ${i} 中文与 English; `));
    const { out } = await drain(events);
    expect(out).toHaveLength(events.length);
    expect(joined(out)).toBe(joined(events));
    const none = await drain(events, []);
    expect(none.out).toEqual(events);
  });

  it('releases what it held when the run fails, then rethrows', async () => {
    async function* failing(): AsyncGenerator<RunEventBody, string> {
      yield text('partial answer');
      throw new Error('provider went away');
    }
    const out: RunEventBody[] = [];
    const gen = scrubbedEvents(failing(), [KEY]);
    await expect(
      (async () => {
        for (;;) {
          const next = await gen.next();
          if (next.done) return;
          out.push(next.value);
        }
      })(),
    ).rejects.toThrow('provider went away');
    expect(joined(out)).toBe('partial answer');
  });
});
