// The chat's terminal view, drawn with Ink (React for the terminal): finished lines in <Static>
// (printed once, so the terminal's own scrollback holds the conversation), below them what is still
// moving: the streaming reply (reasoning dimmed), the spinner with the context size, an approval
// question or a pick, and the prompt. Written with createElement so the main build needs no JSX.
import { Box, Static, Text, useApp, useInput } from 'ink';
import Spinner from 'ink-spinner';
import TextInput from 'ink-text-input';
import { createElement as h, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { errorHelpKey } from '../../../shared/locales/errors';
import { toolLabel } from '../../../shared/tool-names';
import { toolSummary } from '../../../shared/tool-summary';
import type { ChatController } from './controller';
import type { ChatLanguage, Translate } from './i18n';
import { completeBlocksLength, renderMarkdown } from './markdown';
import { progressLine } from './progress-line';
import { formatFooter, type Item, PLAN_TOOL, type PendingQuestion } from './screen';

const toneColor = { info: undefined, warn: 'yellow', error: 'red', dim: 'gray' } as const;

function planAnswer(item: Extract<Item, { kind: 'approval' }>, t: Translate): string {
  if (item.decision !== 'deny') return t('approval.planApproved');
  return item.reason ? t('approval.planDeclinedWith', { reason: item.reason }) : t('approval.planDeclined');
}

/**
 * An error as the app shows it: on an English screen the core's own words (the most precise); on
 * any other, what happened and what to do in that language, and the English words only when asked
 * for (--verbose), as a detail for a bug report.
 */
function ErrorLine({ item, language, verbose, t }: { item: Extract<Item, { kind: 'error' }>; language: ChatLanguage; verbose: boolean; t: Translate }): ReactNode {
  if (language === 'en') return h(Text, { color: 'red' }, item.message);
  const help = t(errorHelpKey(item), { defaultValue: t('errorHelp.unknown') });
  if (!verbose) return h(Text, { color: 'red' }, help);
  return h(Box, { flexDirection: 'column' }, h(Text, { color: 'red' }, help), h(Text, { dimColor: true }, `  ${t('errorDetail', { message: item.message })}`));
}

/**
 * The card's sentences for a blocked or failed call point at its raw output, which the card shows
 * behind a toggle; here the tool's own text is shown only with --verbose, so they say where the
 * reason is in this terminal: below, after starting with --verbose, or nowhere.
 */
function terminalSummaryKeys(shown: 'hidden' | 'below' | 'none'): Record<string, string> {
  return { 'toolSummary.blocked': `toolResult.blocked_${shown}`, 'toolSummary.failed': `toolResult.failed_${shown}` };
}

/** A finished call as the app's tool card says it; with --verbose, the start of the tool's own text below. */
function ToolResultLine({ item, verbose, t }: { item: Extract<Item, { kind: 'tool_result' }>; verbose: boolean; t: Translate }): ReactNode {
  const keys = terminalSummaryKeys(!verbose ? 'hidden' : item.preview === '' ? 'none' : 'below');
  const summary = toolSummary(item.said, (key, vars) => (keys[key] ? t(keys[key], { ...vars, flag: '--verbose' }) : t(key, vars)));
  const line = h(Text, { color: item.isError ? 'red' : 'gray' }, `← ${toolLabel(item.name, t)}: ${summary}`);
  if (!verbose || item.preview === '') return line;
  return h(Box, { flexDirection: 'column' }, line, h(Text, { dimColor: true }, `  ${item.preview}`));
}

export interface ItemLineProps {
  item: Item;
  language: ChatLanguage;
  /** Also show what the person need not read: the core's English words under an error, a tool's own text. */
  verbose: boolean;
  t: Translate;
}

export function ItemLine({ item, language, verbose, t }: ItemLineProps): ReactNode {
  switch (item.kind) {
    case 'user':
      return h(Text, { color: 'green' }, `${t('you')} › `, h(Text, { color: undefined }, item.text));
    case 'assistant':
      return h(Text, null, renderMarkdown(item.text));
    case 'reasoning':
      return h(Text, { dimColor: true, italic: true }, item.text);
    case 'tool_call':
      return h(Text, { color: 'cyan' }, `→ ${toolLabel(item.name, t)} `, h(Text, { dimColor: true }, item.summary));
    case 'tool_result':
      return h(ToolResultLine, { item, verbose, t });
    case 'approval': {
      const answer = item.name === PLAN_TOOL ? planAnswer(item, t) : t('approval.answered', { name: toolLabel(item.name, t), decision: t(`approval.${item.decision}`) });
      return h(Text, { color: item.decision === 'deny' ? 'red' : 'green' }, `${item.decision === 'deny' ? '✗' : '✓'} ${answer}`);
    }
    case 'notice':
      return h(Text, { color: toneColor[item.tone], dimColor: item.tone === 'dim' }, `${item.prefix ?? ''}${t(item.key, { ...item.vars, ...item.worded?.(t) })}`);
    case 'text':
      return h(Text, { color: toneColor[item.tone], dimColor: item.tone === 'dim' }, item.text);
    case 'error':
      return h(ErrorLine, { item, language, verbose, t });
    case 'footer':
      return h(Text, { dimColor: true }, formatFooter(item));
  }
}

/**
 * The question the run waits on: a call's name and arguments in short, or, for a plan, the plan
 * itself, what approving it allows, and answers in the plan's words; after a no, what should change.
 */
function QuestionBox({ question, askingReason, t }: { question: PendingQuestion; askingReason: boolean; t: Translate }): ReactNode {
  const box = { flexDirection: 'column', borderStyle: 'round', borderColor: question.risk === 'destructive' ? 'red' : 'yellow', paddingX: 1 } as const;
  if (question.plan !== null) {
    return h(
      Box,
      box,
      h(Text, { bold: true }, t('approval.planQuestion')),
      h(Text, null, renderMarkdown(question.plan)),
      h(Text, null, t('approval.planAllows')),
      h(Text, { color: 'yellow' }, t(askingReason ? 'approval.planReasonQuestion' : 'approval.planKeys')),
    );
  }
  return h(
    Box,
    box,
    h(Text, { bold: true }, t('approval.question', { name: toolLabel(question.name, t), summary: question.summary })),
    question.detail ? h(Text, { dimColor: true }, question.detail) : null,
    question.risk === 'destructive' ? h(Text, { color: 'red' }, t('approval.destructive')) : null,
    h(Text, { color: 'yellow' }, t('approval.keys')),
  );
}

/**
 * The reply while it streams: its complete blocks rendered as markdown (again only when another
 * block completes), the block still arriving as typed.
 */
function LiveReply({ text }: { text: string }): ReactNode {
  const cut = completeBlocksLength(text);
  const done = text.slice(0, cut);
  const rendered = useMemo(() => (done.trim() === '' ? '' : renderMarkdown(done)), [done]);
  const tail = text.slice(cut);
  return h(Box, { flexDirection: 'column' }, rendered ? h(Text, null, rendered) : null, tail.trim() !== '' ? h(Text, null, tail) : null);
}

/** Re-renders every 100 ms while a reply runs, so the spinner's seconds move. */
function useTicker(active: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/** The prompt's hint: the keys the question on screen takes, or what to type. */
function placeholderOf(question: PendingQuestion | undefined, askingReason: boolean, t: Translate): string {
  if (!question) return t('placeholder');
  if (askingReason) return t('approval.planReasonPlaceholder');
  return question.plan === null ? 'y / a / n' : 'y / n';
}

export function ChatApp({ controller, t, language, header, verbose = false }: { controller: ChatController; t: Translate; language: ChatLanguage; header: string; verbose?: boolean }): ReactNode {
  const view = useSyncExternalStore(
    (listener) => controller.subscribe(listener),
    () => controller.view,
  );
  const [line, setLine] = useState('');
  // The line as last typed, ahead of the render: text and the Enter after it may arrive before the
  // input has drawn the text, and the input then submits the line it last drew.
  const typed = useRef('');
  const { exit } = useApp();
  const { screen, prompt } = view;
  const running = screen.running;
  const question = screen.approvals[0];
  const askingReason = prompt.kind === 'declineReason' && question?.callId === prompt.callId;
  const now = useTicker(running !== null && !question);

  useInput((input, key) => {
    if (!(key.ctrl && input === 'c')) return;
    void controller.interrupt().then((outcome) => {
      if (outcome === 'exit') exit();
    });
  });

  const submit = (value: string) => {
    typed.current = '';
    setLine('');
    void controller.submit(value).then((outcome) => {
      if (outcome === 'exit') exit();
    });
  };

  // Text and Enter arriving in one chunk (a paste, a fast terminal) reach onChange with the line
  // break inside: that is a submit too.
  const change = (value: string) => {
    const brk = value.search(/[\r\n]/);
    if (brk === -1) {
      typed.current = value;
      setLine(value);
    } else submit(value.slice(0, brk));
  };

  const live: ReactNode[] = [];
  if (screen.liveReasoning) live.push(h(Text, { key: 'r', dimColor: true, italic: true }, screen.liveReasoning));
  if (screen.liveText) live.push(h(LiveReply, { key: 't', text: screen.liveText }));
  if (running && !question) {
    const seconds = ((now - running.startedAt) / 1000).toFixed(1);
    live.push(
      h(
        Text,
        { key: 's', color: 'magenta' },
        h(Spinner, { type: 'dots' }),
        ` ${running.progress ? progressLine(running.progress, t) : t('spinner', { seconds: Math.max(0, Number(seconds)).toFixed(1), tokens: running.contextTokens.toLocaleString('en') })}`,
      ),
    );
  }
  if (question) {
    live.push(h(QuestionBox, { key: 'q', question, askingReason, t }));
  } else if (prompt.kind === 'pickMode') {
    live.push(h(Text, { key: 'p', color: 'yellow' }, t('pick.mode')));
  } else if (prompt.kind === 'pickTask') {
    live.push(h(Text, { key: 'p', color: 'yellow' }, t('pick.task')));
  }

  const title = view.task ? `${view.task.title || t('task.untitled')} · ${t(`modes.${view.task.mode}`)} · ${t(`approvalModes.${view.task.approval_mode}`)}` : '';
  return h(
    Box,
    { flexDirection: 'column' },
    h(Static<{ id: number; node: ReactNode }>, {
      items: [{ id: 0, node: h(Text, { bold: true }, header) }, ...screen.items.map((item) => ({ id: item.id, node: h(ItemLine, { item, language, verbose, t }) }))],
      children: (entry) => h(Box, { key: entry.id }, entry.node),
    }),
    ...live,
    h(
      Box,
      null,
      h(Text, { color: question ? 'yellow' : 'blue' }, question ? '? ' : '› '),
      h(TextInput, { value: line, onChange: change, onSubmit: () => submit(typed.current), placeholder: placeholderOf(question, askingReason, t) }),
    ),
    title ? h(Text, { dimColor: true }, title) : null,
  );
}
