// The Ink view rendered to a fake terminal (Ink's own render with stdout/stdin objects), driven
// by a backend whose run events the test sends: what the person would see and type.
import { EventEmitter } from 'node:events';
import { render } from 'ink';
import { createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend } from './fake-backend.test-support';
import { ChatController } from './controller';
import { createTranslate, type ChatLanguage, type Translate } from './i18n';
import { ChatApp } from './view';
import { latinSentences } from '../../../shared/latin-text.test-support';
import { task } from './fake-backend.test-support';

// Ink draws nothing live when it believes it runs in CI (is-in-ci, read when ink loads), and CI runs
// this suite with CI=true: the terminal here is a fake one we read, so those variables go first.
vi.hoisted(() => {
  for (const name of Object.keys(process.env)) if (name === 'CI' || name === 'CONTINUOUS_INTEGRATION' || name.startsWith('CI_')) delete process.env[name];
});

// Colours are decided once, when chalk loads: force them so dimmed reasoning can be seen.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

class FakeStdout extends EventEmitter {
  columns = 100;
  rows = 40;
  isTTY = true;
  written = '';
  write(chunk: string): boolean {
    this.written += chunk;
    return true;
  }
}

class FakeStdin extends EventEmitter {
  isTTY = true;
  private chunks: string[] = [];
  setRawMode(): void {}
  setEncoding(): void {}
  ref(): void {}
  unref(): void {}
  read(): string | null {
    return this.chunks.shift() ?? null;
  }
  type(text: string): void {
    this.chunks.push(text);
    this.emit('readable');
  }
}

const tick = (ms = 60) => new Promise((r) => setTimeout(r, ms));
/** Ink draws on its own schedule (and the machine may be busy): poll for what should appear. */
async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await tick(20);
}
const plain = (s: string) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

/**
 * The chat drawn in a fake terminal, in `t`'s language, against a fake backend: what the person
 * would see (`stdout.written`) and type (`stdin.type`, or `typeLine` at a question). Unmounted after the test.
 */
function renderChat(t: Translate, language: ChatLanguage = 'en', verbose = false) {
  const fake = fakeBackend();
  const controller = new ChatController({ backend: fake.backend });
  const stdout = new FakeStdout();
  const stdin = new FakeStdin();
  const app = render(createElement(ChatApp, { controller, t, language, header: 'HEAD', verbose }), {
    stdout: stdout as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, stderr: stdout as unknown as NodeJS.WriteStream,
    exitOnCtrlC: false, patchConsole: false,
  });
  cleanup = () => app.unmount();
  /**
   * Types a line and Enter, Enter only once the line is drawn and the input's key handler has been
   * renewed after that render (a passive effect, later than the frame): it submits the value it
   * closed over.
   */
  const typeLine = async (text: string) => {
    if (text !== '') {
      stdin.type(text);
      await until(() => plain(stdout.written).includes(`? ${text}`));
    }
    await tick();
    stdin.type('\r');
  };
  return { ...fake, controller, stdout, stdin, typeLine };
}

/** The agent puts a plan before the person: its call, then the question. */
function proposePlan(emit: (body: Record<string, unknown>) => void, plan: string): void {
  const args = JSON.stringify({ content: plan });
  emit({ type: 'tool_call', call_id: 'c1', name: 'propose_plan', arguments: args, kind: 'edit' });
  emit({ type: 'approval_required', call_id: 'c1', name: 'propose_plan', arguments: args, kind: 'edit', risk: 'standard', detail: null });
}

describe('the chat view', () => {
  it('shows the turn as it streams, asks at the prompt, and prints the footer', async () => {
    const { calls, emit, stdout, stdin, typeLine } = renderChat(await createTranslate('en'));
    await tick();
    stdin.type('write a note');
    await tick();
    stdin.type('\r');
    await until(() => calls.length === 2 && plain(stdout.written).includes('you › write a note'));
    expect(calls.map((c) => c.method)).toEqual(['createTask', 'sendMessage']);
    expect(plain(stdout.written)).toContain('you › write a note');

    emit({ type: 'reasoning_delta', delta: 'Pondering quietly' });
    emit({ type: 'approval_required', call_id: 'c1', name: 'write', arguments: '{"path":"work/note.md"}', kind: 'edit', risk: 'standard', detail: null });
    await until(() => plain(stdout.written).includes('Allow?'));
    expect(plain(stdout.written)).toContain('Allow? Write a file: work/note.md');
    // Reasoning is drawn dim (SGR 2).
    expect(stdout.written).toMatch(/\u001b\[2m[^\u001b]*(\u001b\[3m)?Pondering quietly/);
    await typeLine('a');
    await until(() => calls.length === 3);
    expect(calls.at(-1)).toEqual({ method: 'decideApproval', input: { task_id: 't1', run_id: 'r1', call_id: 'c1', decision: 'allow_task' } });

    emit({ type: 'approval_resolved', call_id: 'c1', decision: 'allow_task' });
    emit({ type: 'text_delta', delta: 'Saved.' });
    emit({ type: 'usage', prompt_tokens: 1234, completion_tokens: 56, cost: 0.5 });
    emit({ type: 'run_finished', reason: 'done', duration_ms: 2000 });
    await until(() => plain(stdout.written).includes('[in '));
    const out = plain(stdout.written);
    expect(out).toContain('✓ Write a file: allowed for this task');
    expect(out).toContain('Saved.');
    expect(out).toContain('[in 1234 out 56 2.0s 0.50]');
  });

  it('sends the line typed when Enter comes before the input has drawn it', async () => {
    const { calls, stdin } = renderChat(await createTranslate('en'));
    await tick();
    // Text and Enter as two reads with no render between them, as a busy machine delivers them.
    stdin.type('write a note');
    stdin.type('\r');
    await until(() => calls.length === 2);
    expect(calls.at(-1)).toMatchObject({ method: 'sendMessage', input: { content: 'write a note' } });
  });

  it('renders a streaming reply as markdown block by block, and the finished reply whole', async () => {
    const { controller, emit, stdout } = renderChat(await createTranslate('en'));
    await controller.submit('stats please');
    emit({ type: 'text_delta', delta: 'The mean is **4.2**.\n\n| city | 均值 |\n|---|---|\n| 北京 | 4' });
    await until(() => plain(stdout.written).includes('| 北京 | 4'));
    // The complete paragraph is rendered (no asterisks); the table still arriving is shown as typed.
    expect(plain(stdout.written)).toContain('The mean is 4.2.');
    expect(plain(stdout.written)).not.toContain('**4.2**');
    emit({ type: 'text_delta', delta: '.2 |\n' });
    emit({ type: 'run_finished', reason: 'done', duration_ms: 10 });
    await until(() => plain(stdout.written).includes('[in '));
    expect(plain(stdout.written)).toContain('│ 北京 │ 4.2  │');
  });

  it('puts a plan before the person in full, with what approving allows, in their language', async () => {
    const { controller, calls, emit, stdout, typeLine } = renderChat(await createTranslate('zh-CN'), 'zh-CN');
    await controller.submit('写一份青年基金申请书');
    proposePlan(emit, '# 规格锁定\n\n- 资助类别：青年科学基金\n- 研究内容约 **4000** 字\n\n## 待确认事项\n\n1. 项目名称？');
    await until(() => plain(stdout.written).includes('确认这份计划？'));
    await until(() => plain(stdout.written).includes('项目名称？'));
    const out = plain(stdout.written);
    // The plan as formatted text, every line of it; never its escaped JSON.
    // The task's mode by its Chinese name, not its id.
    expect(out).toContain('新任务 t1（通用）');
    expect(out).toContain('资助类别：青年科学基金');
    expect(out).toContain('研究内容约 4000 字');
    expect(out).toContain('待确认事项');
    expect(out).not.toContain('\\n');
    expect(out).not.toContain('{"content"');
    expect(out).not.toContain('允许 propose_plan');
    expect(out).toContain('work/spec_lock.md');
    expect(out).toContain('不再逐次询问');
    expect(out).toContain('[Y] 确认计划');
    await typeLine('y');
    await until(() => calls.length === 3);
    expect(calls.at(-1)).toEqual({ method: 'decideApproval', input: { task_id: 't1', run_id: 'r1', call_id: 'c1', decision: 'allow_once' } });
    emit({ type: 'approval_resolved', call_id: 'c1', decision: 'allow_once' });
    emit({ type: 'run_finished', reason: 'done', duration_ms: 10 });
    await until(() => plain(stdout.written).includes('已确认计划。'));
    expect(plain(stdout.written)).toContain('✓ 已确认计划。');
  });

  it('says a provider that cannot be reached in the person\'s language; the core\'s English words only with --verbose', async () => {
    const error = { name: 'ProviderUnreachableError', code: 'provider_unreachable', message: 'Cannot reach http://127.0.0.1:9/v1 for profile fake.main (bad port)' };
    const failedRun = async (language: ChatLanguage, verbose: boolean) => {
      const chat = renderChat(await createTranslate(language), language, verbose);
      await chat.controller.submit('你好');
      chat.emit({ type: 'error', error });
      chat.emit({ type: 'run_finished', reason: 'error', duration_ms: 10 });
      await until(() => plain(chat.stdout.written).includes('[in '));
      const out = plain(chat.stdout.written);
      cleanup?.();
      return out;
    };
    const zh = await failedRun('zh-CN', false);
    expect(zh).toContain('无法连接模型服务器。请检查地址，并确认服务器正在运行。');
    expect(zh).not.toContain('Cannot reach');
    expect(latinSentences(zh)).toEqual([]);
    const zhVerbose = await failedRun('zh-CN', true);
    expect(zhVerbose).toContain('无法连接模型服务器。');
    expect(zhVerbose).toContain('详情（服务器原文，英文）：Cannot reach http://127.0.0.1:9/v1');
    const en = await failedRun('en', false);
    expect(en).toContain('Cannot reach http://127.0.0.1:9/v1');
    expect(en).not.toContain('Details');
  });

  it('says what each tool call did in the person\'s language, from its failure\'s kind, as the app\'s tool card does', async () => {
    const run = async (verbose: boolean) => {
      const chat = renderChat(await createTranslate('zh-CN'), 'zh-CN', verbose);
      await chat.controller.submit('读一下笔记');
      chat.emit({ type: 'tool_call', call_id: 'c1', name: 'read', arguments: '{"path":"work/x.md"}', kind: 'read' });
      chat.emit({ type: 'tool_result', call_id: 'c1', name: 'read', preview: 'File not found: work/x.md. Use glob to list the files that exist.', truncated: false, is_error: true, full_length: 60, writes_artifacts: false, state: 'failed', failure: { kind: 'not_found', path: 'work/x.md' } });
      chat.emit({ type: 'tool_call', call_id: 'c2', name: 'shell', arguments: '{"command":"seq 1 40000"}', kind: 'execute' });
      chat.emit({ type: 'tool_result', call_id: 'c2', name: 'shell', preview: '1\n2\n[command timed out after 20 s and was stopped; the output so far is above]', truncated: false, is_error: true, full_length: 80, writes_artifacts: false, state: 'failed', failure: { kind: 'timed_out', seconds: 20 } });
      chat.emit({ type: 'tool_call', call_id: 'c3', name: 'write', arguments: '{"path":"work/note.md","content":"hi"}', kind: 'edit' });
      chat.emit({ type: 'tool_result', call_id: 'c3', name: 'write', preview: 'Created work/note.md (2 bytes written).', truncated: false, is_error: false, full_length: 40, writes_artifacts: false, state: 'done' });
      chat.emit({ type: 'run_finished', reason: 'done', duration_ms: 10 });
      await until(() => plain(chat.stdout.written).includes('[in '));
      const out = plain(chat.stdout.written);
      cleanup?.();
      return out;
    };
    const out = await run(false);
    expect(out).toContain('→ 读取文件 work/x.md');
    expect(out).toContain('← 读取文件: 找不到 work/x.md。');
    expect(out).toContain('← 运行命令: 超过 20 秒的时限，已停止。');
    expect(out).toContain('← 写入文件: 已写入 work/note.md。');
    expect(out).not.toContain('File not found');
    expect(latinSentences(out)).toEqual([]);
    // With --verbose, the tool's own words follow, for a bug report.
    expect(await run(true)).toContain('File not found: work/x.md. Use glob');
  });

  it('names the tool of an approval by its name, and says where a blocked call\'s reason is in this terminal', async () => {
    const run = async (verbose: boolean, preview: string) => {
      const chat = renderChat(await createTranslate('zh-CN'), 'zh-CN', verbose);
      await chat.controller.submit('抓取网页');
      chat.emit({ type: 'tool_call', call_id: 'c1', name: 'web_fetch', arguments: '{"url":"https://example.com"}', kind: 'network' });
      chat.emit({ type: 'approval_required', call_id: 'c1', name: 'web_fetch', arguments: '{"url":"https://example.com"}', kind: 'network', risk: 'standard', detail: null });
      await until(() => plain(chat.stdout.written).includes('允许'));
      const asked = plain(chat.stdout.written);
      await chat.typeLine('y');
      await until(() => chat.calls.length === 3);
      chat.emit({ type: 'approval_resolved', call_id: 'c1', decision: 'allow_once' });
      chat.emit({ type: 'tool_call', call_id: 'c2', name: 'shell', arguments: '{"command":"rm -rf /"}', kind: 'execute' });
      chat.emit({ type: 'tool_result', call_id: 'c2', name: 'shell', preview, truncated: false, is_error: true, full_length: 60, writes_artifacts: false, state: 'denied' });
      chat.emit({ type: 'run_finished', reason: 'done', duration_ms: 10 });
      await until(() => plain(chat.stdout.written).includes('[in '));
      const out = plain(chat.stdout.written);
      cleanup?.();
      return { asked, out };
    };
    const blocked = 'Blocked: this command deletes files outside the task folder.';
    const quiet = await run(false, blocked);
    expect(quiet.asked).toContain('允许获取网页：');
    expect(quiet.out).toContain('✓ 获取网页：已允许一次');
    expect(quiet.out).toContain('← 运行命令: Folio 拦截了这次调用，它没有运行；用 --verbose 启动对话可看到原因。');
    expect(quiet.out).not.toContain('原始输出');
    expect(latinSentences(quiet.out)).toEqual([]);
    const verbose = await run(true, blocked);
    expect(verbose.out).toContain('原因见下方工具的输出。');
    expect(verbose.out).toContain(blocked);
  });

  const declines = [
    { language: 'zh-CN', keys: '[n] 暂不确认', onlyYN: '请回答 y 或 n。', ask: '需要修改什么？', reason: '题目改为城市绿地降温机制', logged: '✗ 未确认计划：题目改为城市绿地降温机制' },
    // Enter alone at the reason declines without one.
    { language: 'en', keys: '[n] not yet', onlyYN: 'Answer y or n.', ask: 'What should change?', reason: '', logged: '✗ Plan not approved.' },
  ] as const;

  it.each(declines)('declining a plan in $language asks what should change and sends it as the reason; a key not shown does nothing', async (d) => {
    const { controller, calls, emit, stdout, typeLine } = renderChat(await createTranslate(d.language), d.language);
    await controller.submit('write the proposal');
    proposePlan(emit, '# 规格锁定\n\n- 资助类别：青年科学基金');
    await until(() => plain(stdout.written).includes(d.keys));
    // The prompt offers the plan's two keys only.
    expect(plain(stdout.written)).toContain('y / n');
    expect(plain(stdout.written)).not.toContain('y / a / n');
    await typeLine('a');
    await until(() => plain(stdout.written).includes(d.onlyYN));
    await typeLine('n');
    await until(() => plain(stdout.written).includes(d.ask));
    expect(calls.map((c) => c.method)).toEqual(['createTask', 'sendMessage']);
    await typeLine(d.reason);
    await until(() => calls.length === 3);
    expect(calls.at(-1)).toEqual({ method: 'decideApproval', input: { task_id: 't1', run_id: 'r1', call_id: 'c1', decision: 'deny', ...(d.reason ? { reason: d.reason } : {}) } });
    emit({ type: 'approval_resolved', call_id: 'c1', decision: 'deny' });
    await until(() => plain(stdout.written).includes(d.logged));
    expect(plain(stdout.written)).toContain(d.logged);
  });

  it('in Chinese names models, approval modes, task modes and statuses as the app does, never by their ids', async () => {
    const { answers, controller, stdout } = renderChat(await createTranslate('zh-CN'), 'zh-CN');
    answers.listModels = {
      profiles: [
        { id: 'custom.fake-model', name: 'fake-model', provider: '本地模型', model: 'fake-model', has_key: false, api_key_env: null, role: 'chat' },
        { id: 'deepseek.flash', name: 'DeepSeek V4 Flash', provider: 'deepseek', model: 'deepseek-v4-flash', has_key: true, api_key_env: 'DEEPSEEK_API_KEY', role: 'chat' },
      ],
      warnings: [],
    };
    answers.listTasks = { tasks: [{ ...task, id: 't_slides', title: '季度汇报', mode: 'ppt', status: 'completed' }] };
    await controller.submit('/model');
    await controller.submit('/model custom.fake-model');
    await controller.submit('/approvals auto-edit');
    await controller.submit('/approvals');
    await controller.submit('/resume');
    await until(() => plain(stdout.written).includes('季度汇报'));
    const seen = plain(stdout.written);
    expect(seen).toMatch(/✓ 本地模型 +custom\.fake-model/u);
    expect(seen).toMatch(/✓ DeepSeek V4 Flash +deepseek\.flash/u);
    expect(seen).toContain('下一个任务的模型：本地模型');
    expect(seen).toContain('下一个任务的审批模式：自动批准编辑');
    expect(seen).toContain('审批模式：自动批准编辑（/approvals ask：每次询问');
    expect(seen).toMatch(/t_slides +已完成 +幻灯片 +\d{4}-/u);
    expect(seen).not.toMatch(/模型：custom|审批模式：auto|completed|\bppt\b/u);
    expect(latinSentences(seen)).toEqual([]);
  });
});
