// Turns persisted messages, past runs and the live run into the flat row list the virtualized chat
// renders. Pure, so ordering and de-duplication rules are testable without a DOM.
import type { Message, PendingApproval, Run } from '../../shared/contract';
import type { LiveRun } from './live-run';
import { callKey, callStatesOf, type ToolCallState, type ToolResultFacts } from '../../shared/contract/tool-calls';

export interface ToolPair {
  callId: string;
  name: string;
  arguments: string;
  result: Message | null;
  /** The call's state as the task's runs persisted it; null for a call no run recorded. */
  state: ToolCallState | null;
  /** Why it failed and what a program printed, as the run recorded them with the state. */
  facts: ToolResultFacts;
}

export interface ApprovalView {
  runId: string;
  callId: string;
  name: string;
  arguments: string;
  toolKind: PendingApproval['kind'];
  risk: PendingApproval['risk'];
  detail: string | null;
  reasons: PendingApproval['reasons'];
}

export type ChatRow =
  | { key: string; kind: 'user'; message: Message }
  | { key: string; kind: 'assistant'; message: Message; tools: ToolPair[] }
  | { key: string; kind: 'tool'; message: Message }
  | { key: string; kind: 'system'; message: Message }
  | { key: string; kind: 'run-footer'; run: Run }
  | { key: string; kind: 'live'; live: LiveRun }
  | { key: string; kind: 'approvals'; approvals: ApprovalView[] };

/** Sorted by seq, newest page merged over what was loaded before (older pages stay). */
export function mergeNewestPage(existing: Message[], page: Message[]): Message[] {
  const sorted = [...page].sort((a, b) => a.seq - b.seq);
  if (sorted.length === 0) return [];
  const first = sorted[0].seq;
  return [...existing.filter((m) => m.seq < first), ...sorted];
}

export function prependOlderPage(existing: Message[], older: Message[]): Message[] {
  const known = new Set(existing.map((m) => m.id));
  const fresh = older.filter((m) => !known.has(m.id));
  return [...fresh, ...existing].sort((a, b) => a.seq - b.seq);
}

export function mergePendingApprovals(persisted: PendingApproval[], live: LiveRun | null): ApprovalView[] {
  const out: ApprovalView[] = [];
  const seen = new Set<string>();
  const resolved = new Set(live?.resolvedApprovals ?? []);
  for (const a of live?.approvals ?? []) {
    seen.add(a.callId);
    out.push({ runId: a.runId, callId: a.callId, name: a.name, arguments: a.arguments, toolKind: a.toolKind, risk: a.risk, detail: a.detail, reasons: a.reasons });
  }
  for (const a of persisted) {
    if (seen.has(a.call_id) || resolved.has(a.call_id)) continue;
    if (live?.finished && a.run_id === live.runId) continue;
    seen.add(a.call_id);
    out.push({ runId: a.run_id, callId: a.call_id, name: a.name, arguments: a.arguments, toolKind: a.kind, risk: a.risk, detail: a.detail, reasons: a.reasons });
  }
  return out;
}

/**
 * A run whose only visible message is the person's, answered by another run (a regenerated reply,
 * or one streaming now): its own replies are on another branch, so its footer would stand empty
 * between the question and the answer that replaced it.
 */
function replacedReply(visible: Message[], index: number, live: LiveRun | null): boolean {
  if (visible[index].role !== 'user') return false;
  const next = visible.at(index + 1);
  if (next) return next.role !== 'user';
  return live !== null;
}

export function buildChatRows(messages: Message[], runs: Run[], live: LiveRun | null, approvals: ApprovalView[]): ChatRow[] {
  // While a run streams, its persisted assistant/tool messages would duplicate the live draft.
  const visible = live ? messages.filter((m) => m.run_id !== live.runId || m.role === 'user') : messages;
  const toolResults = new Map<string, Message>();
  for (const m of visible) if (m.role === 'tool' && m.tool_call_id) toolResults.set(m.tool_call_id, m);
  const claimed = new Set<string>();
  const lastIndexOfRun = new Map<string, number>();
  visible.forEach((m, i) => {
    if (m.run_id) lastIndexOfRun.set(m.run_id, i);
  });
  const runsById = new Map(runs.map((r) => [r.id, r]));
  const callStates = callStatesOf(runs);

  const rows: ChatRow[] = [];
  visible.forEach((message, index) => {
    if (message.role === 'user') rows.push({ key: message.id, kind: 'user', message });
    else if (message.role === 'assistant') {
      const tools = (message.tool_calls ?? []).map((call) => {
        const result = toolResults.get(call.id) ?? null;
        if (result) claimed.add(result.id);
        const record = callStates.get(callKey(message.id, call.id));
        const facts: ToolResultFacts = { ...(record?.failure ? { failure: record.failure } : {}), ...(record?.program ? { program: record.program } : {}) };
        return { callId: call.id, name: call.name, arguments: call.arguments, result, state: record?.state ?? null, facts };
      });
      rows.push({ key: message.id, kind: 'assistant', message, tools });
    } else if (message.role === 'tool') {
      if (!claimed.has(message.id)) rows.push({ key: message.id, kind: 'tool', message });
    } else rows.push({ key: message.id, kind: 'system', message });

    const run = message.run_id ? runsById.get(message.run_id) : undefined;
    if (run && run.status !== 'running' && lastIndexOfRun.get(run.id) === index && run.id !== live?.runId && !replacedReply(visible, index, live)) {
      rows.push({ key: `footer:${run.id}`, kind: 'run-footer', run });
    }
  });
  if (live) rows.push({ key: `live:${live.runId}`, kind: 'live', live });
  if (approvals.length > 0) rows.push({ key: 'approvals', kind: 'approvals', approvals });
  return rows;
}

function sameTools(a: ToolPair[], b: ToolPair[]): boolean {
  return a.length === b.length && a.every((t, i) => t.callId === b[i].callId && t.name === b[i].name && t.arguments === b[i].arguments && t.result === b[i].result && t.state === b[i].state);
}

function sameRow(a: ChatRow, b: ChatRow): boolean {
  if (a.key !== b.key || a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'user':
    case 'tool':
    case 'system':
      return a.message === (b as typeof a).message;
    case 'assistant':
      return a.message === (b as typeof a).message && sameTools(a.tools, (b as typeof a).tools);
    case 'run-footer':
      return a.run === (b as typeof a).run;
    case 'live':
      return a.live === (b as typeof a).live;
    case 'approvals':
      return a.approvals === (b as typeof a).approvals;
  }
}

/**
 * `next` with each row that shows the same objects as the previous list's row of that key replaced
 * by that previous row. Rows are rebuilt for every prepended page and every streamed delta; keeping
 * the unchanged ones identical lets the memoized row views skip them instead of re-rendering every
 * visible message (and its tool cards) each time.
 */
export function keepUnchangedRows(previous: readonly ChatRow[], next: ChatRow[]): ChatRow[] {
  if (previous.length === 0) return next;
  const byKey = new Map(previous.map((row) => [row.key, row]));
  return next.map((row) => {
    const before = byKey.get(row.key);
    return before && sameRow(before, row) ? before : row;
  });
}
