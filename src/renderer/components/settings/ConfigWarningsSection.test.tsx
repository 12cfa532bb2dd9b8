// Settings' list of broken model profile and skill files, said in the UI language from the findings.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ConfigWarning } from '../../../shared/contract';
import { latinSentences } from '../../../shared/latin-text.test-support';
import { useUiLanguage } from '../../i18n/ui-language.test-support';
import { ConfigWarningsSection } from './ConfigWarningsSection';

const detail = 'thinking_mode: Invalid option: expected one of "none"|"always"|"toggle"';
const warnings: ConfigWarning[] = [
  { source: 'models/deepseek.yaml', finding: { kind: 'profile_invalid', profile: 'deepseek.flash', fields: ['thinking_mode'] }, detail, message: `deepseek.flash skipped: ${detail}` },
  { source: 'models/deepseek.yaml', finding: { kind: 'override_skipped', profile: 'deepseek.flash' }, message: 'deepseek.flash: the user override was skipped; the built-in profile is used' },
  { source: 'skills/notes/SKILL.md', finding: { kind: 'skill_no_frontmatter' }, message: 'Skill skipped: SKILL.md must start with YAML frontmatter between --- lines' },
];

describe('the config warnings section (zh-CN)', () => {
  useUiLanguage('zh-CN');

  it('says each finding in Chinese, the checker’s English only behind a copy button', () => {
    const html = renderToStaticMarkup(<ConfigWarningsSection warnings={warnings} />);
    for (const said of ['models/deepseek.yaml', 'deepseek.flash：thinking_mode的值无效，已跳过此配置', 'deepseek.flash：你的覆盖设置无效，已改用内置配置', '已跳过此技能：SKILL.md必须以“---”两行之间的YAML头信息开头']) {
      expect(html).toContain(said);
    }
    expect(latinSentences(html)).toEqual([]);
  });
});

describe('the config warnings section (en)', () => {
  useUiLanguage('en');

  it('says each finding with the checker’s own words', () => {
    const html = renderToStaticMarkup(<ConfigWarningsSection warnings={warnings} />);
    expect(html).toContain('deepseek.flash skipped: thinking_mode: Invalid option');
    expect(html).toContain('the user override was skipped; the built-in profile is used');
  });
});
