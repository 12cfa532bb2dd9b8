import { describe, expect, it } from 'vitest';
import { BUILTIN_THEMES, completeTheme, ThemeSchema, type ThemeInput } from './themes';

describe('built-in themes', () => {
  it('are valid themes with every default ThemeSchema would fill in', () => {
    for (const theme of BUILTIN_THEMES) expect(ThemeSchema.parse(theme)).toStrictEqual(theme);
  });

  it('are completed as ThemeSchema.parse completes the same input', () => {
    const [academic] = BUILTIN_THEMES;
    const bare: ThemeInput = { name: 'bare', label: 'Bare', palette: academic.palette, fonts: academic.fonts };
    const partialMaster: ThemeInput = { ...bare, master: { titleMark: 'none' }, lineHeight: 1.5 };
    const withRegions: ThemeInput = { ...bare, sizes: { ...academic.sizes, body: 20 }, regions: { title: { x: 0.1, y: 0.1, w: 0.8, h: 0.1 } }, aspect: '4:3' };
    for (const input of [bare, partialMaster, withRegions]) expect(completeTheme(input)).toStrictEqual(ThemeSchema.parse(input));
  });
});
