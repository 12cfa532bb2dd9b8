import { describe, expect, it } from 'vitest';
import { parseSystemNotice, systemNoticeContent } from './system-notices';

describe('system notices', () => {
  it('round-trip through a message’s content', () => {
    const notice = { notice: 'task_archived', idle_days: 30, purge_at: 1_800_000_000_000 } as const;
    expect(parseSystemNotice(systemNoticeContent(notice))).toEqual(notice);
  });

  it('read plain text, unknown notices and malformed payloads as no notice (the text is shown as written)', () => {
    expect(parseSystemNotice('Archived: this task had no activity for 30 days.\n已归档')).toBeNull();
    expect(parseSystemNotice('{"notice":"something_else"}')).toBeNull();
    expect(parseSystemNotice('{"notice":"task_files_purged","archived_at":"yesterday"}')).toBeNull();
    expect(parseSystemNotice('{not json')).toBeNull();
  });

  it('refuse to store a notice that does not match its schema', () => {
    expect(() => systemNoticeContent({ notice: 'task_archived', idle_days: -1, purge_at: null })).toThrow();
  });
});
