// The approval card rendered to HTML (no DOM needed): what a person sees must show hidden characters.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import en from '../i18n/locales/en.json';
import { toolCatalogEn } from '../../shared/locales/shared-strings';
import { ApprovalCard, approvalChoices } from './ApprovalCard';
import { ToolCard } from './ToolCard';

describe('ApprovalCard', () => {
  it('shows a right-to-left override and an ANSI escape in the command escaped, and flags them', () => {
    const html = renderToStaticMarkup(
      <ApprovalCard
        approval={{ runId: 'r', callId: 'c', name: 'shell', toolKind: 'execute', risk: 'standard', detail: '+ echo \u202Eok', reasons: [], arguments: JSON.stringify({ command: 'cat notes\u202Etxt.sh \u001b[2K' }) }}
      />,
    );
    expect(html).not.toContain('\u202E');
    expect(html).not.toContain('\u001b');
    expect(html).toContain('<span class="hidden-char" data-testid="hidden-char">\\u202E</span>');
    expect(html).toContain('<span class="hidden-char" data-testid="hidden-char">␛</span>[2K');
    expect(html).toContain('data-testid="approval-hidden-chars"');
  });

  it('shows no flag for ordinary text', () => {
    const html = renderToStaticMarkup(<ApprovalCard approval={{ runId: 'r', callId: 'c', name: 'shell', toolKind: 'execute', risk: 'standard', detail: null, reasons: [], arguments: '{"command":"ls -la 文件"}' }} />);
    expect(html).not.toContain('hidden-char');
    expect(html).toContain('ls -la 文件');
  });
});

describe('ApprovalCard: always allow this tool', () => {
  useUiLanguage();
  const card = (name: string, toolKind: 'edit' | 'fetch' | 'execute') =>
    renderToStaticMarkup(<ApprovalCard approval={{ runId: 'r', callId: 'c', name, toolKind, risk: 'standard', detail: null, reasons: [], arguments: '{"path":"work/a.md"}' }} />);

  it('offers a third choice for an edit or fetch tool, answered as "always"', () => {
    for (const [name, kind] of [
      ['write', 'edit'],
      ['web_fetch', 'fetch'],
    ] as const) {
      const html = card(name, kind);
      expect(html).toContain('data-testid="approval-always"');
      expect(html).toContain('data-testid="approval-always"');
      expect(html).toContain('data-testid="approval-allow-once"');
      expect(html).toContain('data-testid="approval-allow-task"');
      expect(html).toContain('data-testid="approval-deny"');
    }
    expect(approvalChoices({ toolKind: 'edit', reasons: [], risk: 'standard' }).map((c) => c.decision)).toEqual(['allow_once', 'allow_task', 'always']);
  });

  it('never offers it for a command: those are granted per exact command only', () => {
    const html = card('shell', 'execute');
    expect(html).not.toContain('approval-always');
    expect(html).toContain(en.approval.choice.taskCommand);
    expect(approvalChoices({ toolKind: 'execute', reasons: [], risk: 'standard' }).map((c) => c.decision)).toEqual(['allow_once', 'allow_task']);
  });
});

describe('ApprovalCard: a plan, in Chinese', () => {
  useUiLanguage('zh-CN');
  const plan = '# 规格锁定\n\n- 资助类别：青年科学基金\n\n## 待确认事项\n\n1. 项目名称？';
  const html = () =>
    renderToStaticMarkup(
      <ApprovalCard approval={{ runId: 'r', callId: 'c', name: 'propose_plan', toolKind: 'edit', risk: 'standard', detail: null, reasons: [], arguments: JSON.stringify({ content: plan }) }} />,
    );

  it('shows the plan as a document and says what approving it allows, with one answer for it and one for changes', () => {
    const out = html();
    expect(out).toMatch(/data-testid="approval-plan"[^>]*>[\s\S]*<h1>规格锁定<\/h1>[\s\S]*<li>资助类别：青年科学基金<\/li>/u);
    expect(out).toContain('确认后，在本任务中Folio撰写work/ 下的文档文件和生成文档时不再逐次询问。');
    expect(out).toMatch(/data-testid="approval-allow-once"[^>]*>确认计划</u);
    expect(out).toMatch(/data-testid="approval-deny"[^>]*>要求修改</u);
    expect(out).not.toContain('approval-allow-task');
    expect(out).not.toContain('approval-always');
    // The raw arguments are not shown: the plan is read once, as a document.
    expect(out).not.toContain('{&quot;content&quot;');
  });
});

describe('ToolCard', () => {
  it('escapes hidden characters in the headline and the result', () => {
    const html = renderToStaticMarkup(
      <ToolCard taskId="t" callId="c" name="read" arguments={JSON.stringify({ path: 'a\u202Eb.md' })} result={{ preview: 'x\u001b[31my', truncated: false, isError: false, fullLength: 9 }} />,
    );
    expect(html).not.toContain('\u202E');
    expect(html).not.toContain('\u001b');
    expect(html).toContain('␛');
  });
});

describe('ApprovalCard: what a person decides on', () => {
  useUiLanguage();
  const base = { runId: 'r', callId: 'c', risk: 'standard' as const, detail: null, reasons: [] };
  const count = (html: string, text: string) => html.split(text).length - 1;

  it('shows a command once, with its reason in words and no default answer when it deletes', () => {
    const html = renderToStaticMarkup(
      <ApprovalCard approval={{ ...base, name: 'shell', toolKind: 'execute', risk: 'destructive', detail: 'rm -r work/old', reasons: [{ code: 'deletes', subject: null }], arguments: '{"command":"rm -r work/old"}' }} />,
    );
    expect(count(html, 'rm -r work/old')).toBe(1);
    expect(html).toContain(en.approval.reason.deletes);
    expect(html).toContain('data-testid="approval-destructive"');
    expect(html).not.toContain('btn-primary');
    expect(html).toContain(toolCatalogEn.toolName.shell);
  });

  it('labels a command that needs the network by what it needs, not as destructive, and says what each answer does', () => {
    const html = renderToStaticMarkup(
      <ApprovalCard approval={{ ...base, name: 'shell', toolKind: 'execute', risk: 'destructive', detail: 'curl -O x', reasons: [{ code: 'network', subject: 'curl' }], arguments: '{"command":"curl -O x"}' }} />,
    );
    expect(html).not.toContain('approval-destructive');
    expect(html).toContain('data-testid="approval-network"');
    expect(html).toContain('Needs the network (curl)');
    expect(html).toContain(en.approval.choice.onceNetwork);
    expect(html).toContain(en.approval.choice.taskNetwork);
  });

  it('a web fetch says it uses the network and is not destructive', () => {
    const html = renderToStaticMarkup(<ApprovalCard approval={{ ...base, name: 'web_fetch', toolKind: 'fetch', arguments: '{"url":"https://example.org/a"}' }} />);
    expect(html).not.toContain('approval-destructive');
    expect(html).toContain(en.approval.reason.networkFetch);
    expect(count(html, 'https://example.org/a')).toBe(1);
  });

  it('shows a JSON file to write laid out as JSON, never as an escaped string', () => {
    const content = JSON.stringify({ title: '季度汇报', slides: [{ id: 's1', title: 'Intro' }] });
    const html = renderToStaticMarkup(<ApprovalCard approval={{ ...base, name: 'write', toolKind: 'edit', arguments: JSON.stringify({ path: 'work/deck.json', content }) }} />);
    expect(html).toContain('data-testid="approval-content"');
    expect(html).toContain('&quot;title&quot;: &quot;季度汇报&quot;');
    expect(html).not.toContain('\\&quot;');
    expect(html).not.toContain('approval-arguments');
  });

  it('a web search says it sends the query to the search engine, not that it fetches an address', () => {
    const html = renderToStaticMarkup(<ApprovalCard approval={{ ...base, name: 'web_search', toolKind: 'fetch', detail: 'urban heat', arguments: '{"query":"urban heat","count":3}' }} />);
    expect(html).toContain(en.approval.reason.networkSearch);
    expect(html).not.toContain(en.approval.reason.networkFetch);
    expect(html).toContain('data-testid="approval-query"');
    expect(html).toContain(en.approval.searchFor);
  });

  it('shows an edit as numbered before and after lines, without diff headers or escaped JSON', () => {
    const detail = ['--- a/work/notes.md', '+++ b/work/notes.md', '@@ -4,2 +4,2 @@', ' keep "this"', '-old text', '+new text'].join('\n');
    const args = JSON.stringify({ path: 'work/notes.md', old_str: 'old text', new_str: 'new text' });
    const html = renderToStaticMarkup(<ApprovalCard approval={{ ...base, name: 'edit', toolKind: 'edit', detail, arguments: args }} />);
    expect(html).toContain('data-testid="approval-diff"');
    expect(html).toMatch(/data-kind="remove"><span class="diff-no"[^>]*>5<\/span>.*?old text/);
    expect(html).toMatch(/data-kind="add"><span class="diff-no"[^>]*>5<\/span>.*?new text/);
    expect(html).toContain('keep &quot;this&quot;');
    expect(html).not.toContain('+++');
    expect(html).not.toContain('@@');
    expect(html).not.toContain('old_str');
  });

  it('shows an edit without a computed diff from its own old and new text, and the reason it cannot apply', () => {
    const args = JSON.stringify({ path: 'work/a.md', old_str: 'line one\nline two', new_str: 'line 1' });
    const html = renderToStaticMarkup(<ApprovalCard approval={{ ...base, name: 'edit', toolKind: 'edit', detail: 'edit work/a.md: old_str not found in work/a.md.', arguments: args }} />);
    expect(count(html, 'data-kind="remove"')).toBe(2);
    expect(count(html, 'data-kind="add"')).toBe(1);
    expect(html).toContain('data-testid="approval-note"');
    expect(html).not.toContain('\\n');
  });
});

describe('ToolCard: how a call ended', () => {
  useUiLanguage();
  it('says Denied, not Failed, for a call the person denied, and names tools for people', () => {
    const html = renderToStaticMarkup(
      <ToolCard taskId="t" callId="c" name="mcp__notes-echo__word_count" arguments="{}" result={{ preview: 'The person denied this call.', truncated: false, isError: true, fullLength: 28 }} />,
    );
    expect(html).toContain(en.tool.state.denied);
    expect(html).not.toContain(en.tool.state.error);
    expect(html).toContain('word count (notes-echo)');
  });
});

describe('ApprovalCard: the document tools in Chinese', () => {
  useUiLanguage('zh-CN');
  const card = (name: string, args: unknown, detail: string) =>
    renderToStaticMarkup(<ApprovalCard approval={{ runId: 'r', callId: 'c', name, toolKind: 'edit', risk: 'standard', detail, reasons: [], arguments: JSON.stringify(args) }} />);

  it("shows a revision's changes as before and after with their reasons, in Chinese, not the engine's English sentence", () => {
    const html = card(
      'revise_document',
      { path: 'artifacts/草稿.docx', edits: [{ find: '城市热岛效应加剧了', replace: '城市热岛效应显著加剧了', reason: '强调程度' }] },
      'Write a copy of artifacts/草稿.docx into artifacts/ with 1 tracked change(s); the original is not changed.',
    );
    expect(html).toContain('在artifacts/草稿.docx的副本中标记1处修订，原文件不变。');
    expect(html).toContain('data-testid="approval-edits"');
    expect(html).toContain('强调程度');
    expect(html).not.toContain('Write a copy');
  });

  it('says in Chinese what a render makes and from what', () => {
    expect(card('render_document', { path: 'work/proposal' }, 'Render the document in work/proposal into artifacts/')).toContain('根据work/proposal在artifacts/ 中生成Word文档。');
    const deck = card('render_deck', { spec_path: 'work/deck.json', name: 'heat' }, 'Render a deck from work/deck.json into artifacts/');
    expect(deck).toContain('根据work/deck.json在artifacts/ 中生成演示文稿。');
    expect(deck).not.toContain('Render a deck');
  });
});
