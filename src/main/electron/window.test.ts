// `electron` cannot load here; window.ts's pure decisions are tested with it mocked away.
import { describe, expect, it, vi } from 'vitest';
import { isTrustedFrameUrl, rendererDevUrl } from './window';

vi.mock('electron', () => ({ BrowserWindow: class {}, session: {}, shell: {} }));

describe('rendererDevUrl', () => {
  it('ignores ELECTRON_RENDERER_URL in a packaged app', () => {
    expect(rendererDevUrl(true, { ELECTRON_RENDERER_URL: 'https://evil.example/' })).toBeUndefined();
  });

  it('uses it in development, and nothing when it is unset or empty', () => {
    expect(rendererDevUrl(false, { ELECTRON_RENDERER_URL: 'http://localhost:5173/' })).toBe('http://localhost:5173/');
    expect(rendererDevUrl(false, {})).toBeUndefined();
    expect(rendererDevUrl(false, { ELECTRON_RENDERER_URL: '' })).toBeUndefined();
  });

  it('leaves a packaged app trusting only its own index.html', () => {
    const rendererIndexUrl = 'file:///app/out/renderer/index.html';
    const devUrl = rendererDevUrl(true, { ELECTRON_RENDERER_URL: 'https://evil.example/' });
    expect(isTrustedFrameUrl('https://evil.example/', { rendererIndexUrl, devUrl })).toBe(false);
    expect(isTrustedFrameUrl(`${rendererIndexUrl}#/task`, { rendererIndexUrl, devUrl })).toBe(true);
  });
});
