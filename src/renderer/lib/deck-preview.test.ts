import { describe, expect, it } from 'vitest';
import { applyLanguageSetting } from '../i18n';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import { fontFamilyFor, issuesBySlide, niceMax, pieSlices, previewTheme, slideIssuesTooltip, styledRuns } from './deck-preview';

describe('deck preview geometry', () => {
  it('rounds axis maxima up to 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(niceMax(100)).toBe(100);
    expect(niceMax(130)).toBe(200);
    expect(niceMax(0.7)).toBe(1);
    expect(niceMax(23)).toBe(25);
    expect(niceMax(0)).toBe(1);
  });

  it('splits a pie by share and skips non-positive values', () => {
    const slices = pieSlices([3, 1, 0, -2], 50, 50, 40);
    expect(slices.map((s) => s.index)).toEqual([0, 1]);
    expect(slices.map((s) => s.fraction)).toEqual([0.75, 0.25]);
    expect(slices[0].path.startsWith('M50 50L50 10A40 40 0 1 1')).toBe(true);
    expect(pieSlices([0, 0], 0, 0, 1)).toEqual([]);
    expect(pieSlices([1], 50, 50, 40, 20)[0].path).toContain('A20 20 0 1 0');
  });
});

describe('deck preview fonts and report', () => {
  it('gives each script run the theme face, with free twins and the other script as fallbacks', () => {
    const { theme, known } = previewTheme('academic');
    expect(known).toBe(true);
    const runs = styledRuns(theme, 'heading', 'Results 结果');
    expect(runs.map((r) => r.text)).toEqual(['Results ', '结果']);
    expect(runs[0].fontFamily).toBe('"Times New Roman", "Liberation Serif", "Noto Serif CJK SC", serif');
    expect(runs[1].fontFamily).toBe('"Noto Serif CJK SC", "Times New Roman", serif');
    expect(fontFamilyFor(theme, 'body', false)).toBe('"Arial", "Liberation Sans", "Noto Sans CJK SC", sans-serif');
  });

  it('falls back to the default theme for a theme it does not know', () => {
    const { theme, known } = previewTheme('my-lab');
    expect(known).toBe(false);
    expect(theme.name).toBe('academic');
  });

  it('keys issues by spec slide index and leaves clean slides out', () => {
    const map = issuesBySlide({
      slides: [
        { index: 0, output_slides: [1], issues: [] },
        { index: 2, output_slides: [3, 4], issues: [{ kind: 'split', message: 'split onto 2 slides' }] },
      ],
      summary: { slides_in: 3, slides_out: 4, issues: 1 },
    });
    expect([...map.keys()]).toEqual([2]);
    expect(issuesBySlide(null).size).toBe(0);
  });
});

describe("a slide's findings in its badge's tooltip", () => {
  useUiLanguage();

  it("says the engine's sentences in English and each kind and explanation in Chinese, the gap typed", async () => {
    const issues = [
      { kind: 'shrunk' as const, message: 'title shrunk from 28 to 24 pt to fit' },
      { kind: 'too_many_words' as const, message: '120 words (max 60)' },
    ];
    await applyLanguageSetting('en');
    expect(slideIssuesTooltip(issues)).toBe('title shrunk from 28 to 24 pt to fit\n120 words (max 60)');
    await applyLanguageSetting('zh-CN');
    const zh = slideIssuesTooltip(issues);
    expect(zh.split('\n')[0]).toBe('字号已缩小：文字已缩小字号，以放进文本框。');
    expect(zh).toMatch(/^[^A-Za-z]*$/u);
  });
});
