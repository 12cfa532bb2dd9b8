import { describe, expect, it } from 'vitest';
import { programOutput } from './program-output';

describe('programOutput', () => {
  it("keeps what the program printed and drops the lines Folio adds for the model", () => {
    expect(programOutput('总计 12 行\nok\n[exit code 0 · 0.3 s]')).toBe('总计 12 行\nok');
    expect(programOutput('figure saved\nFiles written: work/a.png\n[The network is off for commands in this task.]\n[exit code 1 · 2.0 s]')).toBe('figure saved');
    expect(programOutput('(no output)\n[timed out after 30 s; the command and everything it started were killed]')).toBe('');
  });

  it('keeps a bracketed line the program printed itself', () => {
    expect(programOutput('[1, 2, 3]\n[exit code 0 · 0.1 s]')).toBe('[1, 2, 3]');
  });
});
