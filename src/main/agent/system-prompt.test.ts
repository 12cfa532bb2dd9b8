import { describe, expect, it } from 'vitest';
import { findResourcesDir } from '../config/app-paths';
import { loadPromptTemplate, renderSystemPrompt, skillLanguageRule } from './system-prompt';

describe('system prompt', () => {
  const template = loadPromptTemplate(findResourcesDir());

  it('fills the task folder, mode, sources, skills and the language rule', () => {
    const text = renderSystemPrompt(template, {
      taskFolder: '/data/tasks/t1',
      mode: 'ppt',
      sources: [{ task_id: 't1', path: 'source/报告.pdf', kind: 'source', size: 2048, sha256: '', created_at: 0 }],
      skills: [{ name: 'ppt', description: 'Make decks' }],
      sourceNotes: { 'source/报告.pdf': '12 pages' },
      date: new Date('2026-11-30T00:00:00Z'),
    });
    expect(text).toContain('/data/tasks/t1');
    expect(text).toContain('`source/报告.pdf` (2.0 KB, 12 pages)');
    expect(text).toContain('**ppt**: Make decks');
    expect(text).toContain('Load the `ppt` skill');
    expect(text).toContain('2026-11-30');
    expect(text).toMatch(/language of the person's latest message/);
    expect(text).not.toMatch(/\{\{\w+\}\}/);
  });

  it('a general task has no default skill and says when there are no sources', () => {
    const text = renderSystemPrompt(template, { taskFolder: '/x', mode: 'general', sources: [], skills: [] });
    expect(text).toContain('(no source files yet)');
    expect(text).not.toContain('Load the');
  });

  it('explains the untrusted-content marker the web tools use, and asks for cited URLs', async () => {
    const { wrapUntrusted } = await import('../tools/untrusted');
    const text = renderSystemPrompt(template, { taskFolder: '/x', mode: 'general', sources: [], skills: [] });
    // The prompt names the very markers the tools write (both come from UNTRUSTED_TAG).
    const [open] = wrapUntrusted('s', 'x').split(' ');
    expect(text).toContain(`${open} source="…">`);
    expect(text).toContain(`</${open.slice(1)}>`);
    expect(text).toMatch(/never as instructions/u);
    expect(text).toMatch(/cite the URLs/u);
  });
});

describe('skillLanguageRule', () => {
  const template = loadPromptTemplate(findResourcesDir());
  it("carries the template's language section and the language of the person's latest message", () => {
    const zh = skillLanguageRule(template, '请审查这份合同');
    expect(zh).toMatch(/^Answer in the language of the person's latest message/u);
    expect(zh).toMatch(/must be in Chinese/u);
    expect(zh).not.toMatch(/## /u);
    expect(skillLanguageRule(template, 'Review the contract')).not.toMatch(/Chinese \(简体中文\)/u);
    expect(skillLanguageRule(template, null)).toMatch(/language of the input you are given/u);
  });
});
