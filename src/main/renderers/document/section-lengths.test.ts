import { describe, expect, it } from 'vitest';
import { templateLengthGuides, templateOutline } from '../../../shared/specs/document';
import { type OutlineHeading, sectionLengthIssues } from './section-lengths';

const h = (text: string, depth = 1, units = 100, section = '01.md'): OutlineHeading => ({ section, depth, text, units });

describe('sectionLengthIssues (nsfc guides)', () => {
  const headings = [h('立项依据'), h('研究背景', 2), h('研究方案与可行性分析'), h('特色与创新之处'), h('参考文献')];

  it('reports sections over or under their page range, with their section file and heading', () => {
    // 立项依据 from 0 to 7.5 (its subsection included): over 5; 研究方案 7.5 → 8.5: under 2; 特色 8.5 → 9.5 is fine.
    const issues = sectionLengthIssues('nsfc', headings, [0, 1, 7.5, 8.5, 9.5], 10);
    expect(issues.map((i) => [i.heading, /over|under/.exec(i.message)?.[0]])).toEqual([
      ['立项依据', 'over'],
      ['研究方案与可行性分析', 'under'],
    ]);
    expect(issues[0]).toMatchObject({ kind: 'section_length', section: '01.md' });
    expect(issues[0]?.message).toContain('7.5 pages');
  });

  it('checks pages only where the headings were placed, and characters without pages', () => {
    expect(sectionLengthIssues('nsfc', headings, null, null)).toEqual([]);
    const long = [h('立项依据', 1, 5000), h('研究内容', 1, 3500), h('研究基础与工作条件', 1, 9000)];
    const issues = sectionLengthIssues('nsfc', long, null, null);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.message).toMatch(/8500 characters\/words, over the 8000 recommended/u);
  });

  it('does not measure one entry of a combined heading on its own', () => {
    const combined = [h('研究目标、研究内容和拟解决的关键科学问题'), h('特色与创新之处'), h('参考文献')];
    // The combined heading spans 6 pages; no single-entry guide covers it, and 特色 is in range.
    expect(sectionLengthIssues('nsfc', combined, [0, 6, 7], 8)).toEqual([]);
  });

  it('names only entries of the template outline, for every NSFC template', () => {
    for (const name of ['nsfc', 'nsfc_general', 'nsfc_youth'] as const) {
      const titles = new Set(templateOutline(name).map((e) => e.title));
      const guides = templateLengthGuides(name);
      expect(guides.length).toBeGreaterThan(0);
      for (const guide of guides) for (const section of guide.sections) expect(titles, `${name}: ${section}`).toContain(section);
    }
  });

  it('measures the section at the level the outline sits, not a deeper heading that contains an alias', () => {
    // "技术路线" (an alias of 研究方案) at level 3 inside 立项依据; the real 研究方案 is a later top heading.
    const nested = [h('立项依据'), h('研究思路', 2), h('技术路线', 3), h('拟采取的研究方案及可行性分析', 1, 100, '03.md'), h('参考文献')];
    const issues = sectionLengthIssues('nsfc', nested, [0, 1, 1.5, 3, 3.5], 4);
    expect(issues.map((i) => [i.section, i.heading])).toContainEqual(['03.md', '拟采取的研究方案及可行性分析']);
    expect(issues.map((i) => i.heading)).not.toContain('技术路线');
  });

  it('measures the official outline at its levels: the part for 8000 characters, an item for its pages', () => {
    const official = [
      h('立项依据与研究内容', 1, 0),
      h('项目的立项依据', 2, 3000),
      h('技术路线', 3, 200),
      h('研究内容、研究目标，以及拟解决的关键科学问题', 2, 3000),
      h('拟采取的研究方案及可行性分析', 2, 2500, '03.md'),
      h('研究基础与工作条件', 1, 9000),
    ];
    const issues = sectionLengthIssues('nsfc_general', official, [0, 0, 1, 1.5, 2, 7.5], 10);
    // 8700 characters in the part (研究基础 after it is not counted); 研究方案 from 2 to 7.5 is over 5 pages.
    expect(issues.map((i) => i.message)).toContainEqual(expect.stringMatching(/"立项依据与研究内容" has 8700 characters\/words, over the 8000/u));
    expect(issues.map((i) => [i.section, i.heading])).toContainEqual(['03.md', '拟采取的研究方案及可行性分析']);
    expect(issues.map((i) => i.heading)).not.toContain('技术路线');
  });

  it('has nothing to say for templates without guides', () => {
    expect(sectionLengthIssues('generic', headings, [0, 1, 7.5, 8.5, 9.5], 10)).toEqual([]);
  });
});
