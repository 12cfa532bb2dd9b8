// MCP in the chat, rendered to HTML: the header menu counts the task's enabled servers, and
// an MCP tool's approval card shows its kind.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../shared/contract';
import { ApprovalCard } from './ApprovalCard';
import { McpMenu } from './McpMenu';

const task = (mcp_servers: string[] | null): Task => ({
  id: 't', title: 'T', description: '', mode: 'general', status: 'active', model: null, approval_mode: 'ask', workspace_path: null, allow_network: false,
  prompt_tokens: 0, completion_tokens: 0, cost: 0, created_at: 1, updated_at: 1, last_run: null, reasoning: null, mcp_servers, project_id: null,
});

describe('McpMenu', () => {
  it('names how many servers the task uses, closed until opened', () => {
    // No i18n instance here: the keys show which label was chosen.
    expect(renderToStaticMarkup(<McpMenu task={task(['github', 'files'])} />)).toContain('mcp.menuCount');
    const none = renderToStaticMarkup(<McpMenu task={task(null)} />);
    expect(none).not.toContain('mcp.menuCount');
    expect(none).toContain('mcp.menu');
    expect(none).not.toContain('mcp-menu-popover');
  });
});

describe('ApprovalCard for an MCP tool', () => {
  it('shows the mcp kind badge', () => {
    const html = renderToStaticMarkup(
      <ApprovalCard approval={{ runId: 'r', callId: 'c', name: 'mcp__github__create_issue', toolKind: 'mcp', risk: 'standard', detail: 'MCP server "github", tool "create_issue"', reasons: [], arguments: '{"title":"x"}' }} />,
    );
    expect(html).toContain('kind-mcp');
    expect(html).toContain('approval.reason.mcp');
  });
});
