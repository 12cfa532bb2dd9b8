// The key fields web search and embeddings share: the name in capitals under the section's labels,
// and a key field that says a key is stored without holding it.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useUiLanguage } from '../../i18n/ui-language.test-support';
import { KeyFields } from './KeyFields';

const noop = () => undefined;

describe('KeyFields', () => {
  useUiLanguage();

  it('labels and names the fields by section and says when a key is stored', () => {
    const html = renderToStaticMarkup(<KeyFields section="search" keyEnv="TAVILY_KEY" defaultKeyEnv="TAVILY_API_KEY" onKeyEnv={noop} keyValue="" onKey={noop} stored envName="TAVILY_KEY" />);
    expect(html).toContain('data-testid="search-key-env"');
    expect(html).toContain('value="TAVILY_KEY"');
    expect(html).toContain('placeholder="TAVILY_API_KEY"');
    expect(html).toContain('data-testid="search-key"');
    expect(html).toContain('A key is stored for TAVILY_KEY; paste a new one to replace it');
  });

  it('asks for a key when none is stored', () => {
    const html = renderToStaticMarkup(<KeyFields section="embedding" keyEnv="" defaultKeyEnv="EMBED_KEY" onKeyEnv={noop} keyValue="" onKey={noop} stored={false} envName="EMBED_KEY" />);
    expect(html).toContain('data-testid="embedding-key-env"');
    expect(html).toContain('Paste the key; it is stored locally and never shown again');
  });
});
