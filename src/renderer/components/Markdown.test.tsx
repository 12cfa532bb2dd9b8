import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyLanguageSetting, initI18n } from '../i18n';
import { Markdown } from './Markdown';

describe('Markdown', () => {
  beforeAll(async () => {
    await initI18n();
    await applyLanguageSetting('en');
  });

  it('gives each code block a copy button, and inline code none', () => {
    const html = renderToStaticMarkup(<Markdown text={'Run `ls` then:\n\n```sh\nnpm test\n```\n\n```\nmore\n```'} />);
    expect(html.match(/data-testid="copy-code"/g)).toHaveLength(2);
    expect(html).toContain('aria-label="Copy code"');
    expect(html).toContain(`<code>${'ls'}</code>`);
  });
});
