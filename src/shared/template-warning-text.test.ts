// An imported template's warnings worded from the shared catalog: every kind in both languages.
import { describe, expect, it } from 'vitest';
import { latinSentences } from './latin-text.test-support';
import { loadLateStrings, type LateStrings } from './locales/late-strings';
import type { Say } from './locales/say';
import { TemplateRecord } from './specs/templates';
import type { TemplateWarning } from './specs/template-warnings';
import { templateWarningText } from './template-warning-text';

/** One warning of every kind (the Record makes a kind left out here a compile error). */
const oneOfEach: Record<TemplateWarning['kind'], TemplateWarning> = {
  no_title_layout: { kind: 'no_title_layout' },
  no_section_layout: { kind: 'no_section_layout', layout: 'Title' },
  no_two_content_layout: { kind: 'no_two_content_layout', layout: 'Content' },
  content_layout_no_title: { kind: 'content_layout_no_title', layout: 'Content' },
  odd_slide_size: { kind: 'odd_slide_size', width: '10.00', height: '5.00', aspect: '16:9' },
  several_masters: { kind: 'several_masters', count: 2, master: 'Office' },
  theme_colours_missing: { kind: 'theme_colours_missing', slots: ['accent5', 'accent6'] },
  unfilled_placeholders: { kind: 'unfilled_placeholders', types: ['pic', 'chart'] },
  picture_background: { kind: 'picture_background' },
  gradient_background: { kind: 'gradient_background' },
  no_east_asian_font: { kind: 'no_east_asian_font' },
  latin_font_unusable: { kind: 'latin_font_unusable', role: 'body', face: '+mn-lt', fallback: 'Arial' },
  cjk_font_unknown: { kind: 'cjk_font_unknown', role: 'heading', face: 'Calibri', fallback: 'Noto Sans CJK SC' },
  body_region_small: { kind: 'body_region_small', layout: 'Content' },
  title_colour_hard: { kind: 'title_colour_hard', title: 'section', colour: 'EEEEEE', behind: 'FFFFFF', chosen: '111111' },
  subtitle_colour_hard: { kind: 'subtitle_colour_hard', colour: 'EEEEEE', behind: 'FFFFFF' },
  table_header_colour_hard: { kind: 'table_header_colour_hard', style: 'Brand', colour: 'EEEEEE', behind: 'FFFFFF', chosen: '111111' },
  table_text_colour_hard: { kind: 'table_text_colour_hard', style: 'Brand', colour: 'EEEEEE', behind: 'FFFFFF', chosen: '111111' },
  body_colour_hard: { kind: 'body_colour_hard', colour: 'EEEEEE', behind: 'FFFFFF', chosen: '111111' },
  accent_colour_hard: { kind: 'accent_colour_hard', colour: 'C8102E', chosen: 'FFD100' },
  legacy: { kind: 'legacy', text: 'The background is a gradient: contrast is checked against its first colour.' },
};

function sayFrom(strings: LateStrings): Say {
  return (key, values) => {
    const template: unknown = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], strings);
    if (typeof template !== 'string') throw new Error(`no string for ${key}`);
    return template.replace(/\{\{(\w+)\}\}/gu, (_, name: string) => String(values[name]));
  };
}

describe('an imported template’s warnings', () => {
  it('have a Chinese sentence for every kind', async () => {
    const zh = sayFrom(await loadLateStrings('zh-CN'));
    for (const warning of Object.values(oneOfEach)) {
      const text = templateWarningText(warning, zh);
      expect(text, warning.kind).toMatch(/\p{Script=Han}/u);
      expect(latinSentences(text), warning.kind).toEqual([]);
    }
    expect(templateWarningText(oneOfEach.title_colour_hard, zh)).toBe('节标题的颜色#EEEEEE在其后的#FFFFFF上难以看清：标题改用#111111。');
    expect(templateWarningText(oneOfEach.theme_colours_missing, zh)).toBe('主题没有为accent5、accent6设置颜色：由Folio的默认颜色补上。');
  });

  it('read in English as the importer wrote them before they were typed', async () => {
    const en = sayFrom(await loadLateStrings('en'));
    expect(templateWarningText(oneOfEach.title_colour_hard, en)).toBe('The section title colour #EEEEEE is hard to read on #FFFFFF behind it: titles use #111111.');
    expect(templateWarningText(oneOfEach.cjk_font_unknown, en)).toBe('The heading East Asian font "Calibri" is not one known to carry Chinese: Noto Sans CJK SC is used for Chinese text.');
    expect(templateWarningText(oneOfEach.legacy, en)).toBe(oneOfEach.legacy.kind === 'legacy' ? oneOfEach.legacy.text : '');
  });

  it('a record stored with English sentences still reads, each kept as it was', () => {
    const warnings = TemplateRecord.shape.warnings.parse(['No title-slide layout found: title and closing slides use the content layout.', { kind: 'picture_background' }]);
    expect(warnings).toEqual([{ kind: 'legacy', text: 'No title-slide layout found: title and closing slides use the content layout.' }, { kind: 'picture_background' }]);
  });
});
