// The page and the plain-text sinks put the Chinese–Latin gap in the same places: the page by its
// autospace (letters and digits) or by a drawn gap (a value's mark edge), plain text by a typed space.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { needsGap } from '../../shared/locales/plain-spacing';
import { TotalUsage } from '../components/settings/GeneralSection';
import { plainT } from './plain';
import { spacedT } from './spaced';
import { useUiLanguage } from './ui-language.test-support';

/** The drawn message with a space where the page shows a gap: its own (gap-start/end) or autospace's. */
function gapsAsShown(html: string): string {
  const text = html.replace(/<span class="gap-start">/gu, ' ').replace(/<span class="gap-end">([^<]*)<\/span>/gu, '$1 ').replace(/<span class="gap-start gap-end">([^<]*)<\/span>/gu, ' $1 ').replace(/<[^>]+>/gu, '');
  let out = '';
  for (const ch of text) {
    const last = out.at(-1) ?? '';
    if (last && needsGap(last, ch)) out += ' ';
    out += ch;
  }
  return out.replace(/ {2,}/gu, ' ');
}

const html = (key: string, values: Record<string, unknown>) => renderToStaticMarkup(<>{spacedT(key, values)}</>);

describe('the gap on the page and in plain text (zh-CN)', () => {
  useUiLanguage('zh-CN');

  it('draws a gap between Chinese and a money amount, where autospace draws none', () => {
    expect(html('usage.cost', { cost: '¥0.07' })).toBe('费用<span class="gap-start">¥0.07</span>');
    // A letter first: autospace draws it, nothing is added.
    expect(html('usage.cost', { cost: 'US$0.07' })).toBe('费用US$0.07');
  });

  // Inside a value the two differ on purpose: autospace draws gaps without changing the text, while
  // plain text never types one into a name ("第3章.md" stays as it is).
  it('shows the gap where plain text types it, at the message’s boundaries and a value’s edges', () => {
    const cases: [string, Record<string, unknown>][] = [
      ['usage.cost', { cost: '¥0.07' }],
      ['usage.cost', { cost: 'US$0.0012' }],
      ['files.downloadNamed', { name: 'work/数据.csv' }],
      ['files.downloadNamed', { name: '/tmp/报告(2)' }],
      ['citation.open', { file: 'x.pdf', page: 12 }],
      ['composer.detach', { name: '-draft.docx' }],
    ];
    for (const [key, values] of cases) expect(gapsAsShown(html(key, values)), key).toBe(plainT(key, values));
  });

  it('draws the total usage line with its cost set off', () => {
    const line = renderToStaticMarkup(<TotalUsage usage={{ prompt_tokens: 1000, completion_tokens: 200 }} money="¥0.35" />);
    expect(line).toContain('费用<span class="gap-start">¥0.35</span>');
  });
});
