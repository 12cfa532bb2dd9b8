// The approval card rendered to HTML (no DOM needed): what a person sees must show hidden characters.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ApprovalCard } from './ApprovalCard';
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
