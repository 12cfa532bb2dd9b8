// What an approval card shows, decided from the call alone (pure, so it is tested without a DOM):
// the one thing to judge (a command, a file's new content, a diff, an address), why it asks, how
// risky it is, and the answers with what each allows and for how long.
import type { ApprovalDecision, ApprovalReason } from '../../shared/contract';
import type { ApprovalView } from '../state/chat-rows';
import { rowsOfReplacement, rowsOfUnifiedDiff, type DiffRow } from './readable-diff';
import { commandOf, parseToolArgs, pathOf } from '../../shared/tool-args';

export type ApprovalSubject =
  | { kind: 'command'; command: string }
  | { kind: 'diff'; path: string | null; rows: DiffRow[]; note: string | null }
  /** What the tool says it will do, in its own words (a non-diff detail: the reason an edit cannot apply, a list of changes). */
  | { kind: 'note'; path: string | null; text: string }
  | { kind: 'file'; path: string; content: string }
  | { kind: 'address'; address: string }
  /** A search query the tool sends to the search engine set in Settings. */
  | { kind: 'query'; query: string }
  | { kind: 'arguments'; text: string }
  /** revise_document: the tracked changes it will mark in a copy of the person's document. */
  | { kind: 'revision'; path: string; edits: { find: string; replace: string; reason: string }[] }
  /** A render into artifacts/ of a deck's spec or a document's folder. */
  | { kind: 'render'; what: 'deck' | 'document'; source: string }
  /** propose_plan: a document's plan, whose yes also allows the writes and the render it leads to. */
  | { kind: 'plan'; content: string };

/** `danger`: can destroy or escape (deletes, overwrites, runs handed code); `network`: reaches the network; `normal`: neither. */
export type ApprovalTone = 'danger' | 'network' | 'normal';

export interface ApprovalChoice {
  decision: Exclude<ApprovalDecision, 'deny'>;
  /** i18n key of the button's label. */
  label: string;
}

function field(raw: string, key: string): string | null {
  const parsed = parseToolArgs(raw);
  const value = parsed.ok ? parsed.value[key] : undefined;
  return typeof value === 'string' ? value : null;
}

/** A JSON file's content laid out for reading (the model often writes it on one line). */
function readableContent(path: string, content: string): string {
  if (!/\.json$/iu.test(path)) return content;
  try {
    return JSON.stringify(JSON.parse(content), null, 2);
  } catch {
    return content;
  }
}

export function approvalSubject(a: Pick<ApprovalView, 'name' | 'toolKind' | 'arguments' | 'detail'>): ApprovalSubject {
  // The engines' own sentences are English; these tools are shown from their arguments instead.
  const own = engineSubject(a.name, a.arguments);
  if (own) return own;
  if (a.toolKind === 'execute') {
    const command = commandOf(a.arguments);
    if (command !== null) return { kind: 'command', command };
  }
  const path = pathOf(a.arguments);
  const content = field(a.arguments, 'content');
  if (path !== null && content !== null) return { kind: 'file', path, content: readableContent(path, content) };
  if (a.toolKind === 'edit') {
    const rows = a.detail ? rowsOfUnifiedDiff(a.detail) : null;
    if (rows) return { kind: 'diff', path, rows, note: null };
    const before = field(a.arguments, 'old_str') ?? field(a.arguments, 'old_string');
    const after = field(a.arguments, 'new_str') ?? field(a.arguments, 'new_string');
    if (before !== null && after !== null) return { kind: 'diff', path, rows: rowsOfReplacement(before, after), note: a.detail };
    if (a.detail) return { kind: 'note', path, text: a.detail };
  }
  if (a.toolKind === 'fetch') {
    const address = field(a.arguments, 'url');
    if (address !== null) return { kind: 'address', address };
    const query = field(a.arguments, 'query');
    if (query !== null) return { kind: 'query', query };
  }
  const parsed = parseToolArgs(a.arguments);
  return { kind: 'arguments', text: parsed.ok ? JSON.stringify(parsed.value, null, 2) : parsed.raw };
}

function engineSubject(name: string, raw: string): ApprovalSubject | null {
  const parsed = parseToolArgs(raw);
  if (!parsed.ok) return null;
  const args = parsed.value;
  const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  if (name === 'propose_plan' && text(args.content)) return { kind: 'plan', content: text(args.content)! };
  if (name === 'render_document' && text(args.path)) return { kind: 'render', what: 'document', source: text(args.path)! };
  if (name === 'render_deck' && text(args.spec_path)) return { kind: 'render', what: 'deck', source: text(args.spec_path)! };
  if (name === 'revise_document' && text(args.path) && Array.isArray(args.edits)) {
    const edits = args.edits.flatMap((e: unknown) => {
      if (typeof e !== 'object' || e === null) return [];
      const edit = e as Record<string, unknown>;
      const [find, replace, reason] = [text(edit.find), text(edit.replace), text(edit.reason)];
      return find !== null && replace !== null ? [{ find, replace, reason: reason ?? '' }] : [];
    });
    return { kind: 'revision', path: text(args.path)!, edits };
  }
  return null;
}

/** The reasons a card states: the call's own, or what its kind always means. */
export function approvalReasons(a: Pick<ApprovalView, 'toolKind' | 'reasons'>): ApprovalReason[] {
  if (a.reasons.length > 0) return a.reasons;
  if (a.toolKind === 'fetch') return [{ code: 'network', subject: null }];
  return [];
}

export function approvalTone(a: Pick<ApprovalView, 'risk' | 'toolKind' | 'reasons'>): ApprovalTone {
  const reasons = approvalReasons(a);
  if (reasons.some((r) => r.code !== 'network')) return 'danger';
  if (reasons.length > 0) return 'network';
  return a.risk === 'destructive' ? 'danger' : 'normal';
}

/**
 * The answers besides Deny, each saying what it allows and for how long. Code-running tools are
 * granted per exact command, never as a whole tool, so they get no "always"; a call that needs the
 * network is allowed for the task by turning the task's network on (the loop does), once by running
 * this call alone with it.
 */
export function approvalChoices(a: Pick<ApprovalView, 'toolKind' | 'reasons' | 'risk'> & { name?: string }): ApprovalChoice[] {
  // A plan asks in every mode and is answered once: its yes is what allows the rest.
  if (a.name === 'propose_plan') return [{ decision: 'allow_once', label: 'approval.choice.plan' }];
  const network = approvalReasons(a).some((r) => r.code === 'network') && a.toolKind === 'execute';
  if (a.toolKind === 'execute') {
    return [
      { decision: 'allow_once', label: network ? 'approval.choice.onceNetwork' : 'approval.choice.onceCommand' },
      { decision: 'allow_task', label: network ? 'approval.choice.taskNetwork' : 'approval.choice.taskCommand' },
    ];
  }
  return [
    { decision: 'allow_once', label: 'approval.choice.once' },
    { decision: 'allow_task', label: 'approval.choice.task' },
    { decision: 'always', label: 'approval.choice.always' },
  ];
}
