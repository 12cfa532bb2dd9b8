import { beforeAll, describe, expect, it } from 'vitest';
import type { Say } from './locales/say';
import { sharedSay } from './locales/say.test-support';
import { toolCatalogEn } from './locales/shared-strings';
import { DENIED_RESULT, NOT_RUN_NEW_MESSAGE } from './tool-outcome';
import { toolSummary, type ToolSummaryInput } from './tool-summary';

let zh: Say;
beforeAll(async () => {
  zh = await sharedSay('zh-CN');
});
const say = (input: Partial<ToolSummaryInput> & { name: string }) => toolSummary({ arguments: '{}', outcome: 'ok', preview: '', ...input }, zh);

describe('a tool call as a person reads it', () => {
  it('a denied or superseded call says so in the UI language, not in the words the model read', () => {
    expect(say({ name: 'shell', outcome: 'denied', preview: DENIED_RESULT })).toBe('你拒绝了这次调用，它没有运行。');
    expect(say({ name: 'write', outcome: 'not-run', preview: NOT_RUN_NEW_MESSAGE })).toMatch(/^未运行/u);
    // Refused by Folio's rules, not by the person: the card must not say the person denied it.
    expect(say({ name: 'shell', outcome: 'denied', preview: 'Blocked: deletes the root. This command is never run; choose a safer way.' })).toMatch(/^Folio拦截了这次调用/u);
  });

  it('names what a render made, and what a file tool touched', () => {
    const rendered = 'Rendered artifacts/heat.pptx from work/deck.json: 6 slides in the file (6 spec slides).\nQuality: ...';
    expect(say({ name: 'render_deck', preview: rendered })).toBe('已生成artifacts/heat.pptx。');
    // A title as the file name: the whole path, spaces and all.
    const titled = 'Rendered artifacts/Cooling cities with green space.docx from work/proposal: 3 pages.';
    expect(say({ name: 'render_document', preview: titled })).toBe('已生成artifacts/Cooling cities with green space.docx。');
    const revised = 'Wrote artifacts/草稿（修订）.docx: 2 of 3 edit(s) as tracked changes by Folio with their reasons as comments; 1 not applied (fix and call again).\n- edit 1: applied';
    expect(say({ name: 'revise_document', preview: revised })).toBe('已生成artifacts/草稿（修订）.docx：3处修改中2处已标为修订。');
    expect(say({ name: 'propose_plan', arguments: '{"content":"# 规格锁定"}', preview: 'The person approved the plan; it is saved as work/spec_lock.md.' })).toBe('你已确认计划，计划已保存到工作文件中。');
    expect(say({ name: 'write', arguments: '{"path":"work/deck.json","content":"{}"}', preview: 'Created work/deck.json (2 bytes written).' })).toBe('已写入work/deck.json。');
    expect(say({ name: 'web_search', arguments: '{"query":"碳中和"}' })).toBe('已在网上搜索“碳中和”。');
    expect(say({ name: 'search_library', arguments: '{"query":"heat"}', preview: 'No library pages match "heat". Try other words, or fewer.' })).toBe('资料库中没有与“heat”匹配的页面。');
  });

  it('counts the files a glob found, the listed ones or the total it names', () => {
    expect(say({ name: 'glob', preview: 'source/a.pdf\nsource/b.pdf\n' })).toBe('找到2个文件。');
    expect(say({ name: 'glob', preview: 'a\nb\n\n(Showing the first 2 of 340 files; use a narrower pattern.)' })).toBe('找到340个文件。');
    expect(say({ name: 'glob', preview: 'No files match **/*.xlsx.' })).toBe('没有匹配的文件。');
  });

  it('an invalid deck spec says how many problems it has and who fixes them, not the model\'s English lines', () => {
    const failed = (failure: ToolSummaryInput['failure']) => say({ name: 'render_deck', outcome: 'error', preview: 'The deck spec (work/deck.json) is invalid (2 errors); fix and render again:', failure });
    expect(failed({ kind: 'invalid_spec', path: 'work/deck.json', count: 2 })).toBe('work/deck.json作为幻灯片规格有2处问题；已把问题告诉模型，由它修改。');
    expect(failed({ kind: 'invalid_spec', count: 1 })).toBe('幻灯片规格有1处问题；已把问题告诉模型，由它修改。');
  });

  it('a command reports how it ended: the time, or the failing exit code', () => {
    expect(say({ name: 'shell', preview: 'hello\n[exit code 0 · 0.4 s]' })).toBe('命令已运行完毕，用时0.4秒。');
    expect(say({ name: 'run_python', outcome: 'error', preview: 'Traceback ...\n[exit code 1 · 2.1 s]' })).toBe('命令以退出码1结束。');
    expect(say({ name: 'read', outcome: 'error', preview: 'ENOENT: no such file' })).toBe('未成功；原因见原始输出。');
  });

  it('an MCP tool is credited to its server; an unknown tool or a missing argument says only that it is done', () => {
    expect(say({ name: 'mcp__notes-echo__word_count', preview: '42' })).toBe('已由notes-echo服务器完成。');
    expect(say({ name: 'skill_contract-review', preview: 'The contract ...' })).toBe('已完成。');
    expect(say({ name: 'read', arguments: 'not json' })).toBe('已完成。');
  });

  it('every one of Folio’s own tools has a Chinese sentence without English words of its own', () => {
    const tools = Object.keys(toolCatalogEn.toolName).filter((n) => n !== 'mcp');
    for (const name of tools) {
      const text = say({ name, arguments: '{"path":"甲","url":"甲","query":"甲","name":"甲","pattern":"甲"}', preview: 'output' });
      expect(text, name).toMatch(/[\u4e00-\u9fff]/u);
      expect(text, name).not.toMatch(/[A-Za-z]{3,}/u);
    }
  });
});
