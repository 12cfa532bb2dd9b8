import { describe, expect, it } from 'vitest';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import { applyLanguageSetting, i18n } from '../i18n';
import { withAttachments } from './attachments';

describe('a message with attached files', () => {
  useUiLanguage();

  it('names the files after the text, in the UI language', async () => {
    await applyLanguageSetting('zh-CN');
    expect(withAttachments('请总结', ['source/a.pdf', 'source/b 笔记.md'], i18n.t)).toBe('请总结\n\n附件：source/a.pdf、source/b 笔记.md');
    await applyLanguageSetting('en');
    expect(withAttachments('Summarise these', ['source/a.pdf', 'source/b.md'], i18n.t)).toBe('Summarise these\n\nAttached: source/a.pdf, source/b.md');
  });

  it('is the text alone without files, and the file line alone without text', () => {
    expect(withAttachments('Hello', [], i18n.t)).toBe('Hello');
    expect(withAttachments('', ['source/a.pdf'], i18n.t)).toBe('Attached: source/a.pdf');
  });
});
