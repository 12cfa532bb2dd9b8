import { describe, expect, it } from 'vitest';
import { SseParser } from './sse';

describe('SseParser', () => {
  it('reassembles an event split across chunks at any point', () => {
    const stream = 'id: 7\nevent: run_event\ndata: {"a":1}\n\n';
    for (let cut = 1; cut < stream.length; cut++) {
      const parser = new SseParser();
      const out = [...parser.push(stream.slice(0, cut)), ...parser.push(stream.slice(cut))];
      expect(out, `cut at ${cut}`).toEqual([{ event: 'run_event', data: '{"a":1}', id: '7' }]);
    }
  });

  it('joins multi-line data with newlines and strips one leading space only', () => {
    const parser = new SseParser();
    expect(parser.push('data: line one\ndata:  indented\ndata:no-space\n\n')).toEqual([
      { event: 'message', data: 'line one\n indented\nno-space', id: '' },
    ]);
  });

  it('skips comments used as keep-alive pings and blocks without data', () => {
    const parser = new SseParser();
    expect(parser.push(': ping\n\n:another\n\nevent: x\n\n')).toEqual([]);
    expect(parser.push('data: after\n\n')).toEqual([{ event: 'message', data: 'after', id: '' }]);
  });

  it('handles CRLF and CR line endings, including a CRLF split between chunks', () => {
    const parser = new SseParser();
    const out = [...parser.push('data: a\r'), ...parser.push('\n\r\n'), ...parser.push('data: b\r\rdata: c\n\n')];
    expect(out.map((m) => m.data)).toEqual(['a', 'b', 'c']);
  });

  it('keeps the last event id across events and starts from a given one', () => {
    const parser = new SseParser('3');
    expect(parser.lastId).toBe('3');
    const out = parser.push('data: x\n\nid: 4\ndata: y\n\ndata: z\n\n');
    expect(out.map((m) => m.id)).toEqual(['3', '4', '4']);
    expect(parser.lastId).toBe('4');
  });

  it('decodes several events in one chunk', () => {
    const parser = new SseParser();
    expect(parser.push('id: 1\ndata: a\n\nid: 2\ndata: b\n\nid: 3\ndata: c').map((m) => m.data)).toEqual(['a', 'b']);
    expect(parser.push('\n\n').map((m) => m.data)).toEqual(['c']);
  });
});
