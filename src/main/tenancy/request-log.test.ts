import { describe, expect, it } from 'vitest';
import { createJsonLogger, logRequest, requestIdFrom } from './request-log';

describe('JSON logs', () => {
  it('writes one JSON object per line with time and level first', () => {
    const lines: string[] = [];
    const log = createJsonLogger((line) => lines.push(line), () => Date.UTC(2026, 0, 2));
    log.warn({ msg: 'hello', level: 'spoofed', n: 3 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('\n');
    expect(Object.keys(JSON.parse(lines[0]) as object).slice(0, 2)).toEqual(['time', 'level']);
    expect(JSON.parse(lines[0])).toEqual({ time: '2026-01-02T00:00:00.000Z', level: 'warn', msg: 'hello', n: 3 });
  });

  it('logs a request at a level from its status', () => {
    const lines: string[] = [];
    const log = createJsonLogger((line) => lines.push(line));
    const base = { requestId: 'r1', method: 'GET', route: '/v1/tasks/:task_id', ms: 1.6, tenant: 't', user: 'u', taskId: 'x' };
    logRequest(log, { ...base, status: 200 });
    logRequest(log, { ...base, status: 401, errorCode: 'unauthorized' });
    logRequest(log, { ...base, status: 503 });
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed.map((p) => p.level)).toEqual(['info', 'warn', 'error']);
    expect(parsed[0]).toMatchObject({ msg: 'request', request_id: 'r1', route: '/v1/tasks/:task_id', status: 200, ms: 2, tenant: 't', user: 'u', task_id: 'x' });
    expect(parsed[1].error).toBe('unauthorized');
  });
});

describe('request ids', () => {
  it('keeps a sane incoming id and replaces anything else', () => {
    expect(requestIdFrom('abc-123_X.y:z')).toBe('abc-123_X.y:z');
    for (const bad of [undefined, '', 'has space', 'x'.repeat(129), 'line\nbreak', '<script>', ['a', 'b']]) {
      const id = requestIdFrom(bad);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
