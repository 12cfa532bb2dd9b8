import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILTIN_THEMES, contrastRatio, findTheme, fontFaceFor, isCjkCapableFace, MIN_TEXT_CONTRAST, type ThemeInput } from '../../../shared/specs/themes';
import { loadUserThemes } from './user-themes';

function userTheme(name: string, overrides: Partial<ThemeInput['palette']> = {}): ThemeInput {
  const academic = findTheme('academic');
  if (!academic) throw new Error('academic theme missing');
  return { ...academic, name, label: name, palette: { ...academic.palette, ...overrides } };
}

describe('built-in themes', () => {
  it('has academic, business, minimal and dark', () => {
    expect(BUILTIN_THEMES.map((t) => t.name)).toEqual(expect.arrayContaining(['academic', 'business', 'minimal', 'dark']));
  });

  it('every text colour meets WCAG AA on the background it is drawn on', () => {
    for (const t of BUILTIN_THEMES) {
      const p = t.palette;
      const pairs: [string, string, string][] = [
        ['text', p.text, p.background],
        ['muted', p.muted, p.background],
        ['title', p.titleText, p.titleBackground],
        ['title muted', p.titleMuted, p.titleBackground],
        ['table header', p.tableHeaderText, p.tableHeader],
        ['zebra', p.text, p.tableZebra],
        ['placeholder', p.muted, p.surface],
      ];
      for (const [what, fg, bg] of pairs) expect(contrastRatio(fg, bg), `${t.name}: ${what}`).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    }
  });

  it('uses a CJK-capable face for CJK runs and a Latin face otherwise', () => {
    for (const t of BUILTIN_THEMES) {
      expect(isCjkCapableFace(fontFaceFor(t, 'body', true))).toBe(true);
      expect(isCjkCapableFace(fontFaceFor(t, 'heading', true))).toBe(true);
      expect(isCjkCapableFace(fontFaceFor(t, 'body', false))).toBe(false);
    }
  });
});

describe('contrastRatio', () => {
  it('follows the WCAG formula', () => {
    expect(contrastRatio('000000', 'FFFFFF')).toBeCloseTo(21);
    expect(contrastRatio('FFFFFF', 'FFFFFF')).toBeCloseTo(1);
    expect(contrastRatio('767676', 'FFFFFF')).toBeCloseTo(4.54, 1);
  });
});

describe('loadUserThemes', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'deck-themes-'));
    writeFileSync(join(dir, 'ocean.json'), JSON.stringify(userTheme('ocean', { accent: '006994' })));
    writeFileSync(join(dir, 'broken.json'), '{ "name": ');
    writeFileSync(join(dir, 'badcolour.json'), JSON.stringify(userTheme('badcolour', { text: '#123' })));
    writeFileSync(join(dir, 'academic.json'), JSON.stringify(userTheme('academic')));
    writeFileSync(join(dir, 'readme.txt'), 'not a theme');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads valid themes and reports the bad ones by file', () => {
    const { themes, errors } = loadUserThemes(dir);
    expect(themes.map((t) => t.name)).toEqual(['ocean']);
    expect(errors).toHaveLength(3);
    expect(errors.join('\n')).toMatch(/broken\.json: not valid JSON/);
    expect(errors.join('\n')).toMatch(/badcolour\.json: palette\.text: expected a 6-digit hex colour/);
    expect(errors.join('\n')).toMatch(/academic\.json: a theme named "academic" already exists/);
    expect(findTheme('ocean', themes)?.palette.accent).toBe('006994');
  });

  it('treats a missing folder as no themes', () => {
    expect(loadUserThemes(join(dir, 'nope'))).toEqual({ themes: [], errors: [] });
  });
});
