import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FontDiscovery, type FontconfigRunner } from '../typesetting/fonts';
import { GlyphCoverage, hasOutlines, missingGlyphIssues } from './glyph-coverage';
import { type LoadedDocument } from './load-folder';

const loaded = (markdown: string): LoadedDocument => ({
  folder: '/nowhere',
  spec: { title: '标题', authors: [], template: 'generic', language: 'zh-CN' },
  sections: [{ file: '01.md', markdown }],
});

/**
 * A fontconfig whose document faces resolve to no file (so only `fc-list` decides) and whose
 * installed families cover everything except the given code points.
 */
function fontconfig(missing: readonly number[]): FontconfigRunner {
  return (tool, args) => {
    if (tool === 'fc-match') return null;
    const cp = Number.parseInt((args.at(-1) ?? '').replace(':charset=', ''), 16);
    return missing.includes(cp) ? '' : 'Some Family\n';
  };
}
const coverage = (runner: FontconfigRunner) => new GlyphCoverage([{ face: 'SimSun', cjk: true }], new FontDiscovery(runner));

describe('missingGlyphIssues', () => {
  const doc = loaded('# 研究背景\n\n普通文字。\n\n# 成果展示\n\n效果很好 😀，再见 😀。\n');

  it('reports emoji when no installed font has them, under their section and heading, once per heading', () => {
    const issues = missingGlyphIssues(doc, coverage(fontconfig([0x1f600])));
    expect(issues).toEqual([{ kind: 'missing_glyph', section: '01.md', heading: '成果展示', params: { chars: '😀', blank: '' }, message: expect.stringContaining('😀 (U+1F600)') as unknown }]);
  });

  it('says nothing when an installed font (an emoji font) has them', () => {
    expect(missingGlyphIssues(doc, coverage(fontconfig([])))).toEqual([]);
  });

  it('says nothing when fontconfig is missing: it cannot tell', () => {
    expect(missingGlyphIssues(doc, coverage(() => null))).toEqual([]);
  });

  it('reports an emoji as blank when the font fontconfig gives for emoji has colour bitmaps only, and not when it has outlines', () => {
    const emojiFont: FontconfigRunner = (tool, args) =>
      tool === 'fc-match' ? ((args.at(-1) ?? '').includes('und-zsye') ? 'Noto Color Emoji\n/fonts/NotoColorEmoji.ttf\n0\n' : null) : 'Some Family\n';
    const withOutlines = (outlines: boolean): GlyphCoverage =>
      new GlyphCoverage([{ face: 'SimSun', cjk: true }], new FontDiscovery(emojiFont, () => true), () => outlines);
    expect(missingGlyphIssues(doc, withOutlines(false))).toEqual([
      { kind: 'missing_glyph', section: '01.md', heading: '成果展示', params: { chars: '', blank: '😀' }, message: expect.stringMatching(/^😀 \(U\+1F600\) prints blank in the PDF/u) as unknown },
    ]);
    expect(missingGlyphIssues(doc, withOutlines(true))).toEqual([]);
    // Not an emoji (no emoji presentation): the document's faces and fc-list decide, as before.
    expect(missingGlyphIssues(loaded('# 标题\n\n版权 © 2026\n'), withOutlines(false))).toEqual([]);
  });

  it('reads outline tables from the font file: Noto Color Emoji has none, DejaVu Sans has glyf', () => {
    const color = '/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf';
    const dejavu = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
    if (existsSync(color)) expect(hasOutlines(color, 0)).toBe(false);
    if (existsSync(dejavu)) expect(hasOutlines(dejavu, 0)).toBe(true);
  });

  it('asks fontconfig once per character', () => {
    const asked: string[] = [];
    const runner: FontconfigRunner = (tool, args) => {
      if (tool === 'fc-list') asked.push(args.at(-1) ?? '');
      return fontconfig([0x1f600])(tool, args);
    };
    missingGlyphIssues(loaded('😀😀😀 字字'), coverage(runner));
    expect(asked.filter((a) => a === ':charset=1f600')).toHaveLength(1);
  });
});
