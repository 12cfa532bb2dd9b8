// What a line typed at the `folio chat` prompt means: a message for the agent, a slash command, or
// an answer to the question on screen (an approval, a mode or task pick). Pure, so it is tested
// without a terminal.
import { ApprovalMode, TaskMode, type ApprovalDecision } from '../../../shared/contract';

export type ChatCommand =
  | { kind: 'empty' }
  | { kind: 'message'; text: string }
  | { kind: 'new'; mode: TaskMode | null; title: string }
  | { kind: 'resume'; target: { last: true } | { id: string } | null }
  | { kind: 'done' }
  | { kind: 'abandon' }
  | { kind: 'desc'; text: string }
  | { kind: 'model'; id: string | null }
  | { kind: 'approvals'; mode: ApprovalMode | null }
  | { kind: 'help' }
  | { kind: 'exit' }
  /** A mistake the person made; `key` names the message in the chat locale. */
  | { kind: 'invalid'; key: string; vars?: Record<string, string> };

/** Every slash command, in the order /help lists them. */
export const COMMAND_NAMES = ['new', 'resume', 'done', 'abandon', 'desc', 'model', 'approvals', 'help', 'exit'] as const;

function splitFirst(rest: string): [string, string] {
  const match = /^(\S+)\s*([\s\S]*)$/.exec(rest);
  return match ? [match[1] ?? '', (match[2] ?? '').trim()] : ['', ''];
}

export function parseChatLine(line: string): ChatCommand {
  const text = line.trim();
  if (text === '') return { kind: 'empty' };
  // `//...` sends a message that starts with a slash.
  if (text.startsWith('//')) return { kind: 'message', text: text.slice(1) };
  if (!text.startsWith('/')) return { kind: 'message', text };
  const [name, rest] = splitFirst(text.slice(1));
  switch (name.toLowerCase()) {
    case 'new': {
      const [first, after] = splitFirst(rest);
      const mode = TaskMode.safeParse(first.toLowerCase());
      return mode.success ? { kind: 'new', mode: mode.data, title: after } : { kind: 'new', mode: null, title: rest };
    }
    case 'resume':
      if (rest === '') return { kind: 'resume', target: null };
      if (rest.toLowerCase() === 'last') return { kind: 'resume', target: { last: true } };
      if (/\s/.test(rest)) return { kind: 'invalid', key: 'errors.resumeArgs' };
      return { kind: 'resume', target: { id: rest } };
    case 'done':
      return { kind: 'done' };
    case 'abandon':
      return { kind: 'abandon' };
    case 'desc':
      return rest === '' ? { kind: 'invalid', key: 'errors.descEmpty' } : { kind: 'desc', text: rest };
    case 'model':
      return { kind: 'model', id: rest === '' ? null : rest };
    // The approval mode; `/mode` is its older name (a task's mode is chosen with /new or --mode).
    case 'approvals':
    case 'mode': {
      if (rest === '') return { kind: 'approvals', mode: null };
      const mode = ApprovalMode.safeParse(rest.toLowerCase());
      return mode.success ? { kind: 'approvals', mode: mode.data } : { kind: 'invalid', key: 'errors.modeUnknown', vars: { mode: rest } };
    }
    case 'help':
    case '?':
      return { kind: 'help' };
    case 'exit':
    case 'quit':
      return { kind: 'exit' };
    default:
      return { kind: 'invalid', key: 'errors.unknownCommand', vars: { name } };
  }
}

/**
 * y / a / n at an approval question (Enter alone means yes, as the prompt shows [Y/a/n]). A plan
 * is approved or not, never allowed for the task: its keys are y and n, and only those act.
 */
export function parseApprovalAnswer(line: string, question: { plan: boolean }): ApprovalDecision | null {
  const answer = line.trim().toLowerCase();
  if (answer === '' || answer === 'y' || answer === 'yes') return 'allow_once';
  if (answer === 'n' || answer === 'no') return 'deny';
  if (!question.plan && (answer === 'a' || answer === 'always')) return 'allow_task';
  return null;
}

/**
 * A pick from a numbered list (the mode choice after /new, the task table after /resume): a
 * number from 1 to `count`, or for tasks an id typed out. Empty: nothing picked (the list closes).
 */
export function parsePick(line: string, count: number): { index: number } | { id: string } | { cancel: true } | null {
  const answer = line.trim();
  if (answer === '') return { cancel: true };
  if (/^\d+$/.test(answer)) {
    const n = Number(answer);
    return n >= 1 && n <= count ? { index: n - 1 } : null;
  }
  return /^[\w-]{6,}$/.test(answer) ? { id: answer } : null;
}
