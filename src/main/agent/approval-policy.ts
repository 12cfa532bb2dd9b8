// Which tool calls need a person's yes (seed 000's permission model, per task mode):
//   ask        every edit / execute / fetch tool asks
//   auto-edit  edits inside the task folder run; execute / fetch ask
//   auto       everything runs except shell-like tools, which ask
// "Allow for this task" grants a tool name for the task; a destructive command always asks,
// whatever was granted, and a blocked one never runs.
import type { ApprovalMode, ToolKind } from '../../shared/contract';

/** Tools that run arbitrary code: treated like `shell` by every mode. */
export const SHELL_LIKE_TOOLS = new Set(['shell', 'run_script']);

export interface ApprovalQuestion {
  mode: ApprovalMode;
  toolName: string;
  kind: ToolKind;
  risk: 'standard' | 'destructive';
  granted: boolean;
}

export function needsApproval(q: ApprovalQuestion): boolean {
  if (q.kind === 'read') return false;
  if (q.risk === 'destructive') return true;
  if (q.granted) return false;
  if (SHELL_LIKE_TOOLS.has(q.toolName)) return true;
  switch (q.mode) {
    case 'ask':
      return true;
    case 'auto-edit':
      return q.kind !== 'edit';
    case 'auto':
      return false;
  }
}
