// Model profile and skill file findings worded from the shared catalog: every kind in both languages,
// Chinese without the checker's English, English with it.
import { describe, expect, it } from 'vitest';
import type { ConfigFinding } from './contract/config-findings';
import { configFindingText } from './config-finding-text';
import { latinSentences } from './latin-text.test-support';
import { loadLateStrings, type LateStrings } from './locales/late-strings';
import type { Say } from './locales/say';

/** One finding of every kind (the Record makes a kind left out here a compile error). */
const oneOfEach: Record<ConfigFinding['kind'], ConfigFinding[]> = {
  profile_folder_unreadable: [{ kind: 'profile_folder_unreadable' }],
  profile_file_name: [{ kind: 'profile_file_name', stem: 'bad name' }],
  invalid_yaml: [
    { kind: 'invalid_yaml', line: null },
    { kind: 'invalid_yaml', line: 3 },
  ],
  file_invalid: [
    { kind: 'file_invalid', fields: [] },
    { kind: 'file_invalid', fields: ['currency'] },
  ],
  unknown_file_field: [
    { kind: 'unknown_file_field', field: 'colour', per_profile: false },
    { kind: 'unknown_file_field', field: 'price', per_profile: true },
  ],
  profile_key_invalid: [{ kind: 'profile_key_invalid', key: 'a b' }],
  profile_not_mapping: [{ kind: 'profile_not_mapping', key: 'x' }],
  unknown_field: [{ kind: 'unknown_field', profile: 'lab.x', field: 'paralel_tools' }],
  profile_invalid: [{ kind: 'profile_invalid', profile: 'lab.x', fields: ['api_base', 'price.input'] }],
  override_skipped: [{ kind: 'override_skipped', profile: 'deepseek.flash' }],
  operator_shadows: [{ kind: 'operator_shadows', profile: 'acme.big' }],
  defined_twice: [{ kind: 'defined_twice', profile: 'lab.x', folder: '/data/models' }],
  no_profiles: [{ kind: 'no_profiles' }],
  skill_no_frontmatter: [{ kind: 'skill_no_frontmatter' }],
  skill_invalid_yaml: [
    { kind: 'skill_invalid_yaml', line: null },
    { kind: 'skill_invalid_yaml', line: 2 },
  ],
  skill_invalid: [{ kind: 'skill_invalid', fields: ['description'] }],
  skill_unreadable: [{ kind: 'skill_unreadable' }],
};
const DETAIL = 'max_context: Invalid input: expected number, received string';

function sayFrom(strings: LateStrings): Say {
  return (key, values) => {
    const template: unknown = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], strings);
    if (typeof template !== 'string') throw new Error(`no string for ${key}`);
    return template.replace(/\{\{(\w+)\}\}/gu, (_, name: string) => String(values[name]));
  };
}

describe('model profile and skill file findings', () => {
  it('have a Chinese sentence for every kind, naming the fields and never the checker’s English', async () => {
    const zh = sayFrom(await loadLateStrings('zh-CN'));
    for (const finding of Object.values(oneOfEach).flat()) {
      const text = configFindingText(finding, DETAIL, zh);
      expect(text, finding.kind).toMatch(/\p{Script=Han}/u);
      expect(text, finding.kind).not.toContain('Invalid input');
      expect(latinSentences(text), finding.kind).toEqual([]);
    }
    expect(configFindingText({ kind: 'profile_invalid', profile: 'lab.x', fields: ['api_base', 'price.input'] }, DETAIL, zh)).toBe('lab.x：api_base、price.input的值无效，已跳过此配置');
    expect(configFindingText({ kind: 'file_invalid', fields: [] }, DETAIL, zh)).toBe('文件内容的值无效，已跳过此文件');
    expect(configFindingText({ kind: 'invalid_yaml', line: 3 }, 'bad', zh)).toBe('第3行YAML格式有误，已跳过此文件');
  });

  it('say the checker’s own detail in English', async () => {
    const en = sayFrom(await loadLateStrings('en'));
    for (const finding of Object.values(oneOfEach).flat()) expect(configFindingText(finding, DETAIL, en), finding.kind).not.toMatch(/\{\{|undefined/u);
    expect(configFindingText({ kind: 'profile_invalid', profile: 'lab.x', fields: ['max_context'] }, DETAIL, en)).toBe(`lab.x skipped: ${DETAIL}`);
  });
});
