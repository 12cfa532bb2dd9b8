// A service's test outcome rendered to HTML: the same for web search and embeddings. A failure is
// headed in the person's language; the server's English words are inline on an English screen and
// only to copy on a Chinese one (the embedding section used to print them bare).
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { visibleText } from '../../../shared/latin-text.test-support';
import { useUiLanguage } from '../../i18n/ui-language.test-support';
import { ServiceTestOutcome } from './ServiceForm';

const failed = { status: 'done', report: { ok: false, message: 'connect ECONNREFUSED 127.0.0.1:9' } } as const;
const passed = { status: 'done', report: { ok: true, message: null } } as const;

describe('a service test outcome in Chinese', () => {
  useUiLanguage('zh-CN');

  for (const section of ['search', 'embedding'] as const) {
    it(`heads a failed ${section} test in Chinese and offers the server's words only to copy`, () => {
      const html = renderToStaticMarkup(<ServiceTestOutcome section={section} test={failed} passed={() => 'ok'} />);
      expect(html).toContain(section === 'search' ? '测试搜索失败。' : '测试嵌入失败。');
      expect(visibleText(html)).not.toContain('ECONNREFUSED');
      expect(html).toContain('data-testid="copy-original"');
      expect(html).toContain(`data-testid="${section}-test-error"`);
    });
  }

  it('shows what the section says a pass shows, and nothing before a test', () => {
    expect(renderToStaticMarkup(<ServiceTestOutcome section="embedding" test={passed} passed={() => <b>fine</b>} />)).toBe('<b>fine</b>');
    expect(renderToStaticMarkup(<ServiceTestOutcome section="embedding" test={{ status: 'running' }} passed={() => 'x'} />)).toBe('');
    expect(renderToStaticMarkup(<ServiceTestOutcome section="embedding" test={null} passed={() => 'x'} />)).toBe('');
  });
});

describe('a service test outcome in English', () => {
  useUiLanguage('en');

  it("puts the server's words inline", () => {
    const html = renderToStaticMarkup(<ServiceTestOutcome section="embedding" test={failed} passed={() => 'ok'} />);
    expect(html).toContain('<strong>The test embedding failed.</strong> <span>connect ECONNREFUSED 127.0.0.1:9</span>');
  });
});
