// What the chat does with each line and key: slash commands, messages, approval answers and picks,
// turned into contract calls; run events folded into the screen (screen.ts). The Ink view only
// draws `view` and forwards input, so this holds every decision and no terminal code.
import { APPROVAL_REASON_MAX_CHARS, TaskMode, type ApprovalDecision, type ApprovalMode, type RunEvent, type Task } from '../../../shared/contract';
import { FolioError } from '../../../shared/errors';
import type { ChatBackend } from './backend';
import { COMMAND_NAMES, parseApprovalAnswer, parseChatLine, parsePick, type ChatCommand } from './commands';
import { historyItems, modelRows, taskRows, wordedModel } from './listings';
import { addItems, applyEvent, initialScreen, noteDeclineReason, startRun, type NewItem, type PendingQuestion, type ScreenState } from './screen';

export type Prompt =
  | { kind: 'input' }
  | { kind: 'pickMode'; title: string }
  | { kind: 'pickTask'; tasks: Task[] }
  /** After a no to a plan: the next line says what should change (empty: nothing said). */
  | { kind: 'declineReason'; callId: string };

export interface ChatView {
  screen: ScreenState;
  task: Task | null;
  prompt: Prompt;
}

/** Modes in the order the /new pick lists them (Enter picks the first). */
export const MODE_ORDER: TaskMode[] = ['general', 'ppt', 'proposal', 'coding'];
/** How many tasks /resume lists. */
export const RESUME_LIST_SIZE = 10;
/** How many of a resumed task's latest messages are shown. */
const HISTORY_MESSAGES = 6;
/** A second Ctrl-C within this long after one that cancelled a run exits. */
export const DOUBLE_CTRL_C_MS = 2000;

export interface ControllerOptions {
  backend: ChatBackend;
  now?: () => number;
  /**
   * First task settings from the command line (`--mode`, `--desc`, `--approvals`, `--model`). A
   * description opens the task at start (it is something said about it); the rest wait for it.
   */
  initial?: { approvalMode?: ApprovalMode; model?: string; mode?: TaskMode; description?: string };
}

/** Never a stack: a FolioError by its kind and message (which names the setting or the cause); anything else as internal. */
function errorItem(err: unknown): NewItem {
  if (err instanceof FolioError) return { kind: 'error', name: err.name, code: err.code, message: err.message };
  return { kind: 'error', name: 'Error', code: 'internal', message: err instanceof Error ? err.message : String(err) };
}

export class ChatController {
  view: ChatView = { screen: initialScreen, task: null, prompt: { kind: 'input' } };
  private readonly listeners = new Set<() => void>();
  private unsubscribeRun: (() => void) | null = null;
  private lastInterrupt = 0;
  private nextModel: string | null;
  private nextApprovalMode: ApprovalMode | null;
  private nextMode: TaskMode | null;
  private readonly initialDescription: string | null;
  /**
   * The task on screen while nobody has said anything in or about it: opened here (/new, or a mode
   * pick) and since then no message, title, description or status. Leaving it (/new, /resume,
   * /exit) deletes it, as zcbot leaves no trace of an empty task; /resume last looks past it.
   */
  private untouchedId: string | null = null;
  private readonly backend: ChatBackend;
  private readonly now: () => number;

  constructor(options: ControllerOptions) {
    this.backend = options.backend;
    this.now = options.now ?? Date.now;
    this.nextModel = options.initial?.model ?? null;
    this.nextApprovalMode = options.initial?.approvalMode ?? null;
    this.nextMode = options.initial?.mode ?? null;
    this.initialDescription = options.initial?.description ?? null;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(view: Partial<ChatView>): void {
    this.view = { ...this.view, ...view };
    for (const listener of this.listeners) listener();
  }

  private say(...items: NewItem[]): void {
    this.set({ screen: addItems(this.view.screen, ...items) });
  }

  private notice(key: string, vars?: Record<string, string | number>, tone: 'info' | 'warn' | 'error' | 'dim' = 'info'): void {
    this.say({ kind: 'notice', key, vars, tone });
  }

  private fail(err: unknown): void {
    this.say(errorItem(err));
  }

  get running(): boolean {
    return this.view.screen.running !== null;
  }

  /**
   * Before the first draw: `--resume last|<id>`; `--desc` opens a task with it (in `--mode`'s mode);
   * else the hint that the first message opens a task.
   */
  async start(resume: string | undefined): Promise<void> {
    if (resume !== undefined) return void (await this.submit(`/resume ${resume}`));
    if (this.initialDescription === null) return this.notice(this.nextMode ? 'task.noneMode' : 'task.none', { mode: this.nextMode ?? '' }, 'dim');
    try {
      await this.createTask(this.nextMode ?? 'general', '', this.initialDescription);
    } catch (err) {
      this.fail(err);
    }
  }

  /** A line submitted at the prompt. */
  async submit(line: string): Promise<'exit' | void> {
    try {
      const reasonFor = this.view.prompt.kind === 'declineReason' ? this.view.prompt.callId : null;
      if (reasonFor !== null) {
        const declined = this.view.screen.approvals.find((q) => q.callId === reasonFor);
        if (declined) return await this.declinePlan(declined, line);
        // The run ended while the person was typing: the prompt they saw was the usual one.
        this.set({ prompt: { kind: 'input' } });
      }
      const question = this.view.screen.approvals[0];
      if (question) return await this.answerApproval(question, line);
      const prompt = this.view.prompt;
      if (prompt.kind === 'pickMode') return await this.pickMode(line, prompt.title);
      if (prompt.kind === 'pickTask') return await this.pickTask(line, prompt.tasks);
      return await this.run(parseChatLine(line));
    } catch (err) {
      this.fail(err);
    }
  }

  /** Ctrl-C: cancels a running reply; a second one soon after, or one while idle, exits. */
  async interrupt(): Promise<'exit' | 'cancelling'> {
    const running = this.view.screen.running;
    const now = this.now();
    if (!running || now - this.lastInterrupt < DOUBLE_CTRL_C_MS) return 'exit';
    this.lastInterrupt = now;
    this.notice('run.cancelling', undefined, 'warn');
    try {
      await this.backend.client.cancelRun({ task_id: running.taskId, run_id: running.runId });
    } catch (err) {
      this.fail(err);
    }
    return 'cancelling';
  }

  private closing: Promise<void> | null = null;

  /** Stops following the run and closes the backend; safe to call again (a signal and the normal exit). */
  close(): Promise<void> {
    this.unsubscribeRun?.();
    this.unsubscribeRun = null;
    this.closing ??= this.leaveUntouched()
      .catch(() => undefined) // the next start purges an untouched task anyway
      .then(() => this.backend.close());
    return this.closing;
  }

  /** Deletes the task on screen if nobody said anything in or about it (see `untouchedId`). */
  private async leaveUntouched(): Promise<void> {
    const id = this.untouchedId;
    if (id === null || this.view.task?.id !== id || this.running) return;
    this.untouchedId = null;
    await this.backend.client.deleteTask({ task_id: id });
  }

  private async run(command: ChatCommand): Promise<'exit' | void> {
    switch (command.kind) {
      case 'empty':
        return;
      case 'exit':
        return 'exit';
      case 'invalid':
        return this.notice(command.key, command.vars, 'error');
      case 'help':
        return this.say(...['help.title', ...COMMAND_NAMES.filter((n) => n !== 'help').map((n) => `help.${n}`), 'help.keys'].map((key): NewItem => ({ kind: 'notice', key, tone: 'dim' })));
      case 'message':
        return this.sendMessage(command.text);
      case 'new':
        if (command.mode) return this.newTask(command.mode, command.title);
        this.say(...MODE_ORDER.map((mode, i): NewItem => ({ kind: 'notice', key: `modes.${mode}`, prefix: `  ${i + 1}. ${mode.padEnd(9)}`, tone: 'dim' })));
        return this.set({ prompt: { kind: 'pickMode', title: command.title } });
      case 'resume':
        return this.resume(command.target);
      case 'done':
      case 'abandon':
        return this.closeTask(command.kind);
      case 'desc':
        return this.describe(command.text);
      case 'model':
        return this.model(command.id);
      case 'approvals':
        return this.approvalMode(command.mode);
    }
  }

  private busy(): boolean {
    if (!this.running) return false;
    this.notice('run.busy', undefined, 'warn');
    return true;
  }

  /** A task opened implicitly (a first message, a /desc) takes `--mode`'s mode, else general. */
  private implicitTask(): Promise<Task> {
    return this.view.task ? Promise.resolve(this.view.task) : this.createTask(this.nextMode ?? 'general', '');
  }

  private async createTask(mode: TaskMode, title: string, description = ''): Promise<Task> {
    await this.leaveUntouched();
    let task = await this.backend.client.createTask({
      mode,
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
      ...(this.nextModel ? { model: this.nextModel } : {}),
    });
    if (this.nextApprovalMode && task.approval_mode !== this.nextApprovalMode) {
      task = await this.backend.client.updateTask({ task_id: task.id, approval_mode: this.nextApprovalMode });
    }
    this.nextModel = null;
    this.nextApprovalMode = null;
    this.nextMode = null;
    this.untouchedId = title || description ? null : task.id;
    this.set({ task });
    this.notice('task.created', { id: task.id, mode: task.mode, title: task.title || task.description }, 'info');
    return task;
  }

  private async newTask(mode: TaskMode, title: string): Promise<void> {
    if (this.busy()) return;
    await this.createTask(mode, title);
  }

  private async pickMode(line: string, title: string): Promise<void> {
    const pick = line.trim() === '' ? { index: 0 } : parsePick(line, MODE_ORDER.length);
    const byName = TaskMode.safeParse(line.trim().toLowerCase());
    const mode = byName.success ? byName.data : pick && 'index' in pick ? MODE_ORDER[pick.index] : undefined;
    if (!mode) return this.notice('pick.invalid', undefined, 'error');
    this.set({ prompt: { kind: 'input' } });
    await this.newTask(mode, title);
  }

  private async resume(target: { last: true } | { id: string } | null): Promise<void> {
    if (this.busy()) return;
    if (target && 'id' in target) return this.openTask(target.id);
    // "last" is the conversation the person had before, never the empty task just opened here.
    const tasks = (await this.backend.client.listTasks({})).tasks.filter((t) => t.id !== this.untouchedId);
    if (tasks.length === 0) return this.notice('task.noTasks');
    if (target) return this.openTask(tasks[0].id);
    const shown = tasks.slice(0, RESUME_LIST_SIZE);
    this.say({ kind: 'notice', key: 'pick.columns', tone: 'dim' }, ...taskRows(shown));
    this.set({ prompt: { kind: 'pickTask', tasks: shown } });
  }

  private async pickTask(line: string, tasks: Task[]): Promise<void> {
    const pick = parsePick(line, tasks.length);
    if (!pick) return this.notice('pick.invalid', undefined, 'error');
    this.set({ prompt: { kind: 'input' } });
    if ('cancel' in pick) return this.notice('pick.cancelled', undefined, 'dim');
    await this.openTask('id' in pick ? pick.id : tasks[pick.index].id);
  }

  private async openTask(id: string): Promise<void> {
    let task: Task;
    try {
      task = await this.backend.client.getTask({ task_id: id });
    } catch (err) {
      if (err instanceof FolioError && (err.code === 'not_found' || err.code === 'invalid_input')) return this.notice('errors.notFound', { id }, 'error');
      throw err;
    }
    if (task.id !== this.view.task?.id) await this.leaveUntouched();
    this.set({ task });
    this.notice('task.resumed', { id: task.id, title: task.title || '-', mode: task.mode, status: task.status, approval: task.approval_mode });
    const { messages, has_more } = await this.backend.client.listMessages({ task_id: task.id, limit: HISTORY_MESSAGES });
    if (has_more) this.notice('task.earlier', undefined, 'dim');
    this.say(...historyItems(messages));
    // A run still going (another window, or `folio serve`): follow it, its questions included.
    if (task.last_run?.status === 'running') {
      this.notice('task.running', undefined, 'dim');
      this.follow(task.id, task.last_run.id);
    }
  }

  private async requireTask(): Promise<Task | null> {
    if (this.view.task) return this.view.task;
    this.notice('task.noTask', undefined, 'error');
    return null;
  }

  private async closeTask(kind: 'done' | 'abandon'): Promise<void> {
    if (this.busy()) return;
    const task = await this.requireTask();
    if (!task) return;
    await this.backend.client.updateTask({ task_id: task.id, status: kind === 'done' ? 'completed' : 'abandoned' });
    if (this.untouchedId === task.id) this.untouchedId = null;
    this.set({ task: null });
    this.notice(kind === 'done' ? 'task.done' : 'task.abandoned', { id: task.id });
  }

  private async describe(text: string): Promise<void> {
    // Like zcbot, /desc may be the first thing said: it opens a task to hold the description.
    const task = await this.implicitTask();
    this.set({ task: await this.backend.client.updateTask({ task_id: task.id, description: text }) });
    if (this.untouchedId === task.id) this.untouchedId = null;
    this.notice('task.desc');
  }

  private async model(id: string | null): Promise<void> {
    const { profiles } = await this.backend.client.listModels({});
    const task = this.view.task;
    if (id === null) {
      const current = task?.model ?? this.nextModel;
      return this.say({ kind: 'notice', key: 'model.header', tone: 'dim' }, ...modelRows(profiles, current));
    }
    if (!profiles.some((p) => p.id === id)) return this.notice('model.unknown', { id }, 'error');
    if (!task) {
      this.nextModel = id;
      return this.say({ kind: 'notice', key: 'model.setNext', worded: wordedModel(id, profiles), tone: 'info' });
    }
    this.set({ task: await this.backend.client.updateTask({ task_id: task.id, model: id }) });
    this.say({ kind: 'notice', key: 'model.set', worded: wordedModel(id, profiles), tone: 'info' });
  }

  private async approvalMode(mode: ApprovalMode | null): Promise<void> {
    const task = this.view.task;
    if (mode === null) return this.notice('mode.show', { mode: task?.approval_mode ?? this.nextApprovalMode ?? 'ask' });
    if (!task) {
      this.nextApprovalMode = mode;
      return this.notice('mode.setNext', { mode });
    }
    this.set({ task: await this.backend.client.updateTask({ task_id: task.id, approval_mode: mode }) });
    this.notice('mode.set', { mode });
  }

  private async sendMessage(text: string): Promise<void> {
    if (this.busy()) return;
    const task = await this.implicitTask();
    this.say({ kind: 'user', text });
    // Fails at once, with nothing stored, when no model can be used (the message names the setting).
    const { run_id } = await this.backend.client.sendMessage({ task_id: task.id, content: text });
    if (this.untouchedId === task.id) this.untouchedId = null;
    this.follow(task.id, run_id);
  }

  private follow(taskId: string, runId: string): void {
    this.unsubscribeRun?.();
    this.set({ screen: startRun(this.view.screen, taskId, runId, this.now()) });
    this.unsubscribeRun = this.backend.subscribeRun(
      taskId,
      runId,
      (event: RunEvent) => {
        this.set({ screen: applyEvent(this.view.screen, event) });
        if (event.type === 'run_finished') void this.refreshTask(taskId);
      },
      (error) => {
        this.fail(error);
        this.set({ screen: { ...this.view.screen, running: null, approvals: [] } });
      },
    );
  }

  /** The task's title and totals change during a run (the first message names it). */
  private async refreshTask(taskId: string): Promise<void> {
    try {
      const task = await this.backend.client.getTask({ task_id: taskId });
      if (this.view.task?.id === taskId) this.set({ task });
    } catch {
      // the header keeps the old title; nothing else depends on it
    }
  }

  private async answerApproval(question: PendingQuestion, line: string): Promise<void> {
    const plan = question.plan !== null;
    const decision = parseApprovalAnswer(line, { plan });
    if (!decision) return this.notice(plan ? 'approval.planInvalid' : 'approval.invalid', undefined, 'error');
    // A plan's no asks first what should change: the agent revises the plan from that, as in the app.
    if (plan && decision === 'deny') return this.set({ prompt: { kind: 'declineReason', callId: question.callId } });
    await this.decide(question, decision);
  }

  private async declinePlan(question: PendingQuestion, line: string): Promise<void> {
    const reason = line.trim();
    if (reason.length > APPROVAL_REASON_MAX_CHARS) return this.notice('approval.reasonTooLong', { count: reason.length, max: APPROVAL_REASON_MAX_CHARS }, 'error');
    this.set({ prompt: { kind: 'input' }, screen: noteDeclineReason(this.view.screen, question.callId, reason) });
    await this.decide(question, 'deny', reason);
  }

  private async decide(question: PendingQuestion, decision: ApprovalDecision, reason = ''): Promise<void> {
    const taskId = this.view.screen.running?.taskId ?? this.view.task?.id;
    if (!taskId) return;
    // The approval_resolved event moves the question into the log.
    await this.backend.client.decideApproval({ task_id: taskId, run_id: question.runId, call_id: question.callId, decision, ...(reason ? { reason } : {}) });
  }
}
