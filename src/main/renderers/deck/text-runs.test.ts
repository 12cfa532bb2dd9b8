import { describe, expect, it } from 'vitest';
import { BUILTIN_THEMES } from '../../../shared/specs/themes';
import { scriptRuns, splitEmoji } from './text-runs';

const theme = BUILTIN_THEMES[0];
const style = { role: 'body' as const, size: 20, color: '000000' };

describe('splitEmoji', () => {
  it('keeps each emoji sequence whole: skin tones, ZWJ families, flags, keycaps, U+FE0F requests', () => {
    const text = 'Hi 👋🏽 team 👨‍👩‍👧 from 🇨🇳, step 1️⃣ ❤️ done';
    expect(splitEmoji(text)).toEqual([
      { text: 'Hi ', emoji: false },
      { text: '👋🏽', emoji: true },
      { text: ' team ', emoji: false },
      { text: '👨‍👩‍👧', emoji: true },
      { text: ' from ', emoji: false },
      { text: '🇨🇳', emoji: true },
      { text: ', step ', emoji: false },
      { text: '1️⃣', emoji: true },
      { text: ' ', emoji: false },
      { text: '❤️', emoji: true },
      { text: ' done', emoji: false },
    ]);
  });

  it('leaves text-style symbols and plain digits in the text face, and joins neighbouring emoji', () => {
    expect(splitEmoji('© 2025 ™ → 3 ✓')).toEqual([{ text: '© 2025 ™ → 3 ✓', emoji: false }]);
    expect(splitEmoji('🚀✅')).toEqual([{ text: '🚀✅', emoji: true }]);
    expect(splitEmoji('')).toEqual([]);
  });
});

describe('scriptRuns', () => {
  it('sets emoji in the colour emoji face and the rest in the theme faces by script', () => {
    const runs = scriptRuns('上线 🚀 launch ✅', style, { theme, cjkLang: 'zh-CN', emojiFace: 'Noto Color Emoji' });
    expect(runs.map((r) => [r.text, r.options?.fontFace])).toEqual([
      ['上线 ', theme.fonts.cjkBody],
      ['🚀', 'Noto Color Emoji'],
      [' launch ', theme.fonts.latinBody],
      ['✅', 'Noto Color Emoji'],
    ]);
  });

  it('stops LibreOffice\'s CJK–Latin gap beside a full-width mark with a word joiner in a 1 pt run, and keeps it between ideographs and Latin', () => {
    const runs = scriptRuns('检索：BM25 与幻觉（hallucination）对比GPT', style, { theme, cjkLang: 'zh-CN', emojiFace: null });
    expect(runs.map((r) => [r.text, r.options?.fontSize])).toEqual([
      ['检索：', 20],
      ['\u2060', 1],
      ['BM25 ', 20],
      ['与幻觉（', 20],
      ['\u2060', 1],
      ['hallucination', 20],
      ['\u2060', 1],
      ['）对比', 20],
      ['GPT', 20],
    ]);
    // The stopper takes the face of the text before it, so LibreOffice sets it in that script.
    expect(runs[1]?.options?.fontFace).toBe(theme.fonts.cjkBody);
    expect(runs[6]?.options?.fontFace).toBe(theme.fonts.latinBody);
  });

  it('leaves emoji in the text face when no emoji face is installed', () => {
    const runs = scriptRuns('launch 🚀', style, { theme, cjkLang: 'zh-CN', emojiFace: null });
    expect(runs.map((r) => [r.text, r.options?.fontFace])).toEqual([['launch 🚀', theme.fonts.latinBody]]);
  });
});
