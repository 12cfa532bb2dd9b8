// Settings → Semantic search rendered to HTML: without a profile only the switch shows; with one the
// stored endpoint, model and dimensions fill the form, and the key field says a key is stored
// without ever holding it (the renderer only learns has_key).
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EmbeddingForm } from './EmbeddingSection';

describe('EmbeddingSection', () => {
  it('shows only the switch and Save without a profile', () => {
    const html = renderToStaticMarkup(<EmbeddingForm current={undefined} />);
    expect(html).toContain('embedding-enabled');
    expect(html).not.toContain('embedding-base-url');
    expect(html).not.toContain('embedding-test');
  });

  it('fills the form from the stored profile and says a key is stored without holding it', () => {
    const stored = { base_url: 'https://api.example.com/v1', model: 'bge-m3', dimensions: 512, api_key_env: 'MY_EMBED_KEY', has_key: true };
    const html = renderToStaticMarkup(<EmbeddingForm current={stored} />);
    expect(html).toContain('value="https://api.example.com/v1"');
    expect(html).toContain('value="bge-m3"');
    expect(html).toContain('value="512"');
    expect(html).toContain('value="MY_EMBED_KEY"');
    // No i18n instance here: the key shows which placeholder was chosen.
    expect(html).toContain('embedding.keyStored');
    expect(html).toContain('embedding-test');
  });
});
