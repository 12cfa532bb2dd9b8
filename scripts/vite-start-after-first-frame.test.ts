import { describe, expect, it } from 'vitest';
import { startAfterFirstFrame } from './vite-start-after-first-frame';

const BUILT = [
  '<script async fetchpriority="high" src="./early-requests.js"></script>',
  '<script type="module" crossorigin src="./assets/index-D5iF7UZg.js"></script>',
  '<link rel="modulepreload" crossorigin href="./assets/i18n-CFZh7OK5.js">',
].join('\n');

describe('the built page starts its modules after the first frame', () => {
  it('replaces the module entry with the starter naming it, preloads the entry, and keeps the modulepreloads', () => {
    const page = startAfterFirstFrame(BUILT);
    expect(page).not.toContain('type="module"');
    expect(page).toContain('<script defer src="./start-after-first-frame.js" data-entry="./assets/index-D5iF7UZg.js"></script>');
    expect(page).toContain('<link rel="modulepreload" crossorigin href="./assets/index-D5iF7UZg.js">');
    expect(page).toContain('<link rel="modulepreload" crossorigin href="./assets/i18n-CFZh7OK5.js">');
  });

  it('fails the build on a page with no entry or two, instead of shipping one that never starts', () => {
    expect(() => startAfterFirstFrame('<div id="root"></div>')).toThrow(/found 0/);
    expect(() => startAfterFirstFrame(`${BUILT}\n<script type="module" crossorigin src="./b.js"></script>`)).toThrow(/found 2/);
  });
});
