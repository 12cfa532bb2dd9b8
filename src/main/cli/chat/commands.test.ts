import { describe, expect, it } from 'vitest';
import { parseApprovalAnswer, parseChatLine, parsePick } from './commands';

describe('parseChatLine', () => {
  it('treats plain text as a message and //text as a message starting with a slash', () => {
    expect(parseChatLine('  hello there ')).toEqual({ kind: 'message', text: 'hello there' });
    expect(parseChatLine('//etc/hosts is odd')).toEqual({ kind: 'message', text: '/etc/hosts is odd' });
    expect(parseChatLine('   ')).toEqual({ kind: 'empty' });
  });

  it('reads /new with an optional mode and a title', () => {
    expect(parseChatLine('/new ppt Quarterly review')).toEqual({ kind: 'new', mode: 'ppt', title: 'Quarterly review' });
    expect(parseChatLine('/new Quarterly review')).toEqual({ kind: 'new', mode: null, title: 'Quarterly review' });
    expect(parseChatLine('/NEW')).toEqual({ kind: 'new', mode: null, title: '' });
  });

  it('reads /resume as a pick, last, or one id', () => {
    expect(parseChatLine('/resume')).toEqual({ kind: 'resume', target: null });
    expect(parseChatLine('/resume LAST')).toEqual({ kind: 'resume', target: { last: true } });
    expect(parseChatLine('/resume t_abc123')).toEqual({ kind: 'resume', target: { id: 't_abc123' } });
    expect(parseChatLine('/resume a b')).toEqual({ kind: 'invalid', key: 'errors.resumeArgs' });
  });

  it('reads the task, model and mode commands', () => {
    expect(parseChatLine('/done')).toEqual({ kind: 'done' });
    expect(parseChatLine('/abandon')).toEqual({ kind: 'abandon' });
    expect(parseChatLine('/desc  Grant for 2027  ')).toEqual({ kind: 'desc', text: 'Grant for 2027' });
    expect(parseChatLine('/desc')).toEqual({ kind: 'invalid', key: 'errors.descEmpty' });
    expect(parseChatLine('/model')).toEqual({ kind: 'model', id: null });
    expect(parseChatLine('/model deepseek.flash')).toEqual({ kind: 'model', id: 'deepseek.flash' });
    expect(parseChatLine('/approvals')).toEqual({ kind: 'approvals', mode: null });
    expect(parseChatLine('/approvals auto')).toEqual({ kind: 'approvals', mode: 'auto' });
    expect(parseChatLine('/mode Auto-Edit')).toEqual({ kind: 'approvals', mode: 'auto-edit' });
    expect(parseChatLine('/mode yolo')).toEqual({ kind: 'invalid', key: 'errors.modeUnknown', vars: { mode: 'yolo' } });
    expect(parseChatLine('/help')).toEqual({ kind: 'help' });
    expect(parseChatLine('/quit')).toEqual({ kind: 'exit' });
    expect(parseChatLine('/frob x')).toEqual({ kind: 'invalid', key: 'errors.unknownCommand', vars: { name: 'frob' } });
  });
});

describe('parseApprovalAnswer', () => {
  it('maps y / a / n (Enter is yes) and refuses anything else; a plan takes only y and n, the keys its question shows', () => {
    const read = (plan: boolean) => ['', 'Y', 'a', 'always', ' n ', 'maybe'].map((line) => parseApprovalAnswer(line, { plan }));
    expect(read(false)).toEqual(['allow_once', 'allow_once', 'allow_task', 'allow_task', 'deny', null]);
    expect(read(true)).toEqual(['allow_once', 'allow_once', null, null, 'deny', null]);
  });
});

describe('parsePick', () => {
  it('takes a number in range, an id, or Enter to cancel', () => {
    expect(parsePick('3', 10)).toEqual({ index: 2 });
    expect(parsePick('11', 10)).toBeNull();
    expect(parsePick('0', 10)).toBeNull();
    expect(parsePick('t_mx4ae1pe', 10)).toEqual({ id: 't_mx4ae1pe' });
    expect(parsePick('', 10)).toEqual({ cancel: true });
    expect(parsePick('two words', 10)).toBeNull();
  });
});
