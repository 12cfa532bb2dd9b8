// Settings → Skills shows a built-in skill by its person-facing title and summary in the UI
// language, never its model-facing description; a person's own skill shows its own words.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useUiLanguage } from '../../i18n/ui-language.test-support';
import type { SkillInfo } from '../../../shared/contract';
import { applyLanguageSetting } from '../../i18n';
import { SkillList } from './SkillsSection';

const MODEL_FACING = 'Translate documents between Chinese and English. Use whenever the person asks for a translation.';
const builtin: SkillInfo = {
  name: 'translate',
  description: MODEL_FACING,
  title: { en: 'Translate', 'zh-CN': '翻译' },
  summary: { en: 'Translates documents between Chinese and English.', 'zh-CN': '中英文互译文档。' },
  source: 'builtin',
  path: '/skills/translate/SKILL.md',
};
const own: SkillInfo = { name: 'weekly-report', description: '按我的格式写周报', source: 'user', path: '/data/skills/weekly-report/SKILL.md' };

describe('SkillsSection: SkillList', () => {
  useUiLanguage();

  it('on a Chinese screen shows the Chinese title and summary, not the model description', async () => {
    await applyLanguageSetting('zh-CN');
    const html = renderToStaticMarkup(<SkillList skills={[builtin, own]} />);
    expect(html).toContain('翻译');
    expect(html).toContain('中英文互译文档。');
    expect(html).not.toContain(MODEL_FACING);
    expect(html).not.toContain('Translates documents');
    expect(html).not.toContain('>translate<');
  });

  it('on an English screen shows the English title and summary', async () => {
    await applyLanguageSetting('en');
    const html = renderToStaticMarkup(<SkillList skills={[builtin, own]} />);
    expect(html).toContain('Translates documents between Chinese and English.');
    expect(html).not.toContain(MODEL_FACING);
    expect(html).not.toContain('中英文互译文档');
  });

  it("shows a person's own skill by its name and its own description", async () => {
    await applyLanguageSetting('zh-CN');
    const html = renderToStaticMarkup(<SkillList skills={[builtin, own]} />);
    expect(html).toContain('weekly-report');
    expect(html).toContain('按我的格式写周报');
  });
});
