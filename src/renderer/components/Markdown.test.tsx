import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import { Markdown } from './Markdown';

describe('Markdown', () => {
  useUiLanguage();

  it('gives each code block a copy button, and inline code none', () => {
    const html = renderToStaticMarkup(<Markdown text={'Run `ls` then:\n\n```sh\nnpm test\n```\n\n```\nmore\n```'} />);
    expect(html.match(/data-testid="copy-code"/g)).toHaveLength(2);
    expect(html).toContain('aria-label="Copy code"');
    expect(html).toContain(`<code>${'ls'}</code>`);
  });
});
