// Settings › Templates says an imported template's warnings in the UI language, from their kinds;
// a warning stored before warnings were typed is explained, its English kept to copy.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { latinSentences } from '../../../shared/latin-text.test-support';
import { TemplateSummary } from '../../../shared/specs/templates';
import { useUiLanguage } from '../../i18n/ui-language.test-support';
import { TemplateItem, UnreadableTemplates } from './TemplatesSection';

const layout = 'ppt/slideLayouts/slideLayout2.xml';
const template = TemplateSummary.parse({
  id: 'acme',
  name: 'ACME',
  file_name: 'ACME.pptx',
  created_at: 1,
  aspect: '16:9',
  slide_size: { cx: 12192000, cy: 6858000 },
  colours: { accent1: 'C8102E' },
  fonts: { major_latin: 'Georgia', minor_latin: 'Arial', major_ea: '', minor_ea: '' },
  background: { kind: 'solid', colour: 'FFFFFF' },
  logo: null,
  master: 'ppt/slideMasters/slideMaster1.xml',
  layouts: [{ name: 'Title and Content', type: 'obj', part: layout, placeholders: [], pictures: 0 }],
  mapping: { title: layout, section: layout, content: layout, two_content: layout, blank: layout },
  palette: { background: 'FFFFFF', text: '111111', accent: 'C8102E', accent2: '333333', chart: ['C8102E'] },
  heading_font: 'Georgia',
  body_font: 'Arial',
  warnings: [
    { kind: 'no_section_layout', layout: 'ACME Title' },
    { kind: 'accent_colour_hard', colour: 'C8102E', chosen: 'FFD100' },
    { kind: 'cjk_font_unknown', role: 'heading', face: 'Calibri', fallback: 'Noto Sans CJK SC' },
    { kind: 'theme_colours_missing', slots: ['accent5', 'accent6'] },
    'No two-content layout found: two-column slides split the "ACME Content" body in two.',
  ],
});

describe('an imported template’s warnings (zh-CN)', () => {
  useUiLanguage('zh-CN');

  it('says each in Chinese, with the names and colours as they are', () => {
    const html = renderToStaticMarkup(<TemplateItem template={template} onDelete={() => {}} />);
    for (const said of [
      '没有找到节标题版式：节标题页使用“ACME Title”版式。',
      '强调色1（#C8102E）在背景上难以看清：Folio的强调文字和标记改用#FFD100。',
      '标题中文字体“Calibri”不是已知含有中文字形的字体：中文改用思源黑体。',
      '主题没有为accent5、accent6设置颜色：由Folio的默认颜色补上。',
      '这是模板在旧版本中导入时记下的英文提示',
    ]) {
      expect(html).toContain(said);
    }
    expect(latinSentences(html)).toEqual([]);
  });

  it('names a folder whose record could not be read in Chinese, without the reader\'s English', () => {
    const html = renderToStaticMarkup(<UnreadableTemplates items={[{ folder: 'templates/acme', detail: 'Unexpected token } in JSON at position 12' }]} />);
    expect(html).toContain('templates/acme：模板记录无法读取。请删除该文件夹，或重新导入模板。');
    expect(html).not.toContain('Unexpected token');
    expect(latinSentences(html)).toEqual([]);
  });
});

describe('an imported template’s warnings (en)', () => {
  useUiLanguage('en');

  it('says each in English, a stored English one as it was', () => {
    const html = renderToStaticMarkup(<TemplateItem template={template} onDelete={() => {}} />);
    expect(html).toContain('Accent 1 (#C8102E) is hard to read on the background');
    expect(html).toContain('No two-content layout found: two-column slides split the &quot;ACME Content&quot; body in two.');
  });

  it('names a folder whose record could not be read, with what the reader said', () => {
    const html = renderToStaticMarkup(<UnreadableTemplates items={[{ folder: 'templates/acme', detail: 'its id is "other"' }]} />);
    expect(html).toContain('templates/acme: the template&#x27;s record could not be read. Remove the folder, or import the template again.');
    expect(html).toContain('its id is &quot;other&quot;');
  });
});
