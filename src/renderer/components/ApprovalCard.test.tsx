// The approval card rendered to HTML (no DOM needed): what a person sees must show hidden characters.
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyLanguageSetting, initI18n } from '../i18n';
import en from '../i18n/locales/en.json';
import { ApprovalCard, approvalChoices } from './ApprovalCard';
import { ToolCard } from './ToolCard';

describe('ApprovalCard', () => {
  it('shows a right-to-left override and an ANSI escape in the command escaped, and flags them', () => {
    const html = renderToStaticMarkup(
      <ApprovalCard
        approval={{ runId: 'r', callId: 'c', name: 'shell', toolKind: 'execute', risk: 'standard', detail: '+ echo \u202Eok', arguments: JSON.stringify({ command: 'cat notes\u202Etxt.sh \u001b[2K' }) }}
      />,
    );
    expect(html).not.toContain('\u202E');
    expect(html).not.toContain('\u001b');
    expect(html).toContain('<span class="hidden-char" data-testid="hidden-char">\\u202E</span>');
    expect(html).toContain('<span class="hidden-char" data-testid="hidden-char">␛</span>[2K');
    expect(html).toContain('data-testid="approval-hidden-chars"');
  });

  it('shows no flag for ordinary text', () => {
    const html = renderToStaticMarkup(<ApprovalCard approval={{ runId: 'r', callId: 'c', name: 'shell', toolKind: 'execute', risk: 'standard', detail: null, arguments: '{"command":"ls -la 文件"}' }} />);
    expect(html).not.toContain('hidden-char');
    expect(html).toContain('ls -la 文件');
  });
});

describe('ApprovalCard: always allow this tool', () => {
  beforeAll(async () => {
    await initI18n();
    await applyLanguageSetting('en');
  });
  const card = (name: string, toolKind: 'edit' | 'fetch' | 'execute') =>
    renderToStaticMarkup(<ApprovalCard approval={{ runId: 'r', callId: 'c', name, toolKind, risk: 'standard', detail: null, arguments: '{"path":"work/a.md"}' }} />);

  it('offers a third choice for an edit or fetch tool, answered as "always"', () => {
    for (const [name, kind] of [
      ['write', 'edit'],
      ['web_fetch', 'fetch'],
    ] as const) {
      const html = card(name, kind);
      expect(html).toContain('data-testid="approval-always"');
      expect(html).toContain(en.permissions.alwaysAllowTool);
      expect(html).toContain('data-testid="approval-allow-once"');
      expect(html).toContain('data-testid="approval-allow-task"');
      expect(html).toContain('data-testid="approval-deny"');
    }
    expect(approvalChoices('edit').map((c) => c.decision)).toEqual(['allow_once', 'allow_task', 'always']);
  });

  it('never offers it for a command: those are granted per exact command only', () => {
    const html = card('shell', 'execute');
    expect(html).not.toContain('approval-always');
    expect(html).toContain(en.approval.allowCommandForTask);
    expect(approvalChoices('execute').map((c) => c.decision)).toEqual(['allow_once', 'allow_task']);
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
