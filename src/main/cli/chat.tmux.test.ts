// `folio chat` in a real terminal: tmux runs the command on the TypeScript entry (as cli.test.ts
// does) against the fake OpenAI server and a temporary data folder; the test types and reads the
// screen as a person would. Ink draws live only outside CI, so the child runs with CI unset.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../testing/fake-openai/server';
import { findResourcesDir } from '../config/app-paths';
import { makeCore, makeDataDir, TEST_KEY } from '../service/core-test-kit';

const root = findResourcesDir();
const session = `folio-chat-test-${process.pid}`;
let fake: FakeOpenAI;
let dataDir: string;

function tmux(...args: string[]): string {
  return execFileSync('tmux', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function screen(): string {
  return tmux('capture-pane', '-p', '-J', '-S', '-200', '-t', session);
}

async function waitUntil(done: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen:\n${screen()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function waitFor(pattern: RegExp | string, timeoutMs = 30_000): Promise<string> {
  let text = '';
  await waitUntil(() => {
    text = screen();
    return typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
  }, String(pattern), timeoutMs);
  return text;
}

/**
 * Types a line: the text literally, then Enter as its own key once the terminal shows the text
 * (the screen changed), as a person presses Enter after seeing what they typed.
 */
async function typeLine(text: string): Promise<void> {
  if (text) {
    const before = screen();
    tmux('send-keys', '-t', session, '-l', text);
    await waitUntil(() => screen() !== before, `the typed "${text}" on screen`);
  }
  tmux('send-keys', '-t', session, 'Enter');
}

const folio = (args: string) => `cd ${root} && env -u CI FOLIO_DATA_DIR=${dataDir} FAKE_API_KEY=${TEST_KEY} LANG=en_US.UTF-8 LC_ALL= LC_MESSAGES= ${process.execPath} --import tsx src/main/cli/main.ts ${args}`;

/** `folio tasks …` in this data folder (no chat may hold it at the time). */
function folioTasks(args: string): string {
  return execFileSync('sh', ['-c', folio(`tasks ${args}`)], { encoding: 'utf8' });
}

function launch(args = ''): void {
  try {
    tmux('kill-session', '-t', session);
  } catch {
    // no such session yet
  }
  const command = `${folio(`chat ${args}`)}; echo CHAT_EXIT=$?; sleep 600`;
  tmux('new-session', '-d', '-s', session, '-x', '140', '-y', '50', command);
}

describe('folio chat in a terminal', () => {
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    dataDir = makeDataDir(fake.url);
    // The fake profile is the Settings default, as a person would have set it up.
    await (await makeCore(dataDir)).close();
  });

  afterAll(async () => {
    try {
      tmux('kill-session', '-t', session);
    } catch {
      // already gone
    }
    await fake.close();
  });

  it('chats, answers an approval, shows footers, exits on Ctrl-C, resumes the earlier task past an empty /new, marks it done, and takes --mode and --desc', async () => {
    launch();
    await waitFor('Message, or /help', 90_000);

    fake.script([{ text: 'Hello from the fake model.', reasoning: 'Thinking it over.', usage: { prompt: 42, completion: 7 }, chunkDelayMs: 20 }]);
    await typeLine('Say hello');
    let text = await waitFor(/\[in \d+ out \d+ /);
    expect(text).toContain('you › Say hello');
    expect(text).toContain('Thinking it over.');
    expect(text).toContain('Hello from the fake model.');
    // The footer's numbers are the fake server's usage; the cost is the profile's price (2 and 8 per million).
    expect(text).toMatch(/\[in 42 out 7 \d+\.\ds 0\.0001\]/);

    await typeLine('/approvals ask');
    await waitFor('Approval mode: Ask every time');
    fake.script([
      { toolCalls: [{ name: 'write', arguments: JSON.stringify({ path: 'work/note.md', content: 'hi' }) }], usage: { prompt: 100, completion: 20 } },
      { text: 'Saved the note.', usage: { prompt: 150, completion: 10 } },
    ]);
    await typeLine('Write a note');
    await waitFor('Allow? Write a file: work/note.md');
    await typeLine('y');
    text = await waitFor(/\[in 250 out 30 /);
    expect(text).toContain('✓ Write a file: allowed once');
    expect(text).toContain('← Write a file: Saved work/note.md.');
    expect(text).toContain('Saved the note.');
    expect(text).toMatch(/\[in 250 out 30 \d+\.\ds 0\.0007\]/);

    // Ctrl-C at an idle prompt exits cleanly: the core closed and the data folder's lock released.
    tmux('send-keys', '-t', session, 'C-c');
    await waitFor('CHAT_EXIT=0');
    expect(existsSync(join(dataDir, 'folio.lock'))).toBe(false);

    launch();
    await waitFor('Message, or /help', 90_000);
    await typeLine('/resume last');
    text = await waitFor('Saved the note.');
    expect(text).toMatch(/Task t_\S+ · Say hello · General · active · approval: Ask every time/);
    expect(text).toContain('you › Write a note');
    const earlierId = /Task (t_\S+) · Say hello/.exec(text)?.[1];
    expect(earlierId).toBeTruthy();

    // /new answered with Enter opens an empty task; /resume last still means the conversation before it.
    await typeLine('/new');
    await waitFor('Mode for the new task');
    await typeLine('');
    text = await waitFor(/New task (t_\S+) \(General\)/);
    const emptyId = /New task (t_\S+) \(General\)/.exec(text)?.[1];
    expect(emptyId).not.toBe(earlierId);
    await typeLine('/resume last');
    text = await waitFor(new RegExp(`New task ${emptyId}[\\s\\S]*Task ${earlierId} · Say hello[\\s\\S]*you › Write a note[\\s\\S]*Saved the note\\.`));

    // A follow-up carries the conversation's messages to the model.
    fake.reset();
    fake.script([{ text: 'Following up: **all done**.', usage: { prompt: 300, completion: 5 } }]);
    await typeLine('And now?');
    text = await waitFor(/\[in 300 out 5 /);
    expect(text).toContain('Following up: all done.');
    const chat = fake.requests.find((r) => r.path.endsWith('/chat/completions'));
    const sent = JSON.stringify((chat?.body as { messages?: unknown } | undefined)?.messages);
    expect(sent).toContain('Say hello');
    expect(sent).toContain('Saved the note.');
    expect(sent).toContain('And now?');

    // /done marks the task on screen completed, not the empty one.
    await typeLine('/done');
    await waitFor(`Task ${earlierId} marked done`);
    tmux('send-keys', '-t', session, 'C-c');
    await waitFor('CHAT_EXIT=0');
    const completed = folioTasks('--status completed');
    expect(completed).toContain(earlierId);
    expect(folioTasks('')).not.toContain(emptyId);

    // zcbot's command line: a coding task described "x", opened at once.
    launch('--mode coding --desc x');
    text = await waitFor(/New task (t_\S+) \(Coding\) x/, 90_000);
    const codingId = /New task (t_\S+) \(Coding\) x/.exec(text)?.[1] ?? '';
    tmux('send-keys', '-t', session, 'C-c');
    await waitFor('CHAT_EXIT=0');
    const core = await makeCore(dataDir);
    try {
      expect(await core.handlers.getTask({ task_id: codingId })).toMatchObject({ mode: 'coding', description: 'x', status: 'active' });
    } finally {
      await core.close();
    }
  }, 300_000);

  it('declines a plan with what should change, which reaches the model as the reason', async () => {
    launch('--mode proposal');
    await waitFor('Message, or /help', 90_000);
    fake.reset();
    fake.script([
      { toolCalls: [{ name: 'propose_plan', arguments: JSON.stringify({ content: '# Plan\n\n- Title: heat islands' }) }], usage: { prompt: 10, completion: 5 } },
      { text: 'I will revise the plan.', usage: { prompt: 20, completion: 5 } },
    ]);
    await typeLine('Write the proposal');
    await waitFor('[n] not yet');
    await typeLine('a');
    await waitFor('Answer y or n.');
    await typeLine('n');
    await waitFor('What should change?');
    await typeLine('Call it urban green space cooling');
    const text = await waitFor(/\[in 30 out 10 /);
    expect(text).toContain('✗ Plan not approved: Call it urban green space cooling');
    const asks = fake.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const sent = JSON.stringify((asks.at(-1)?.body as { messages?: unknown } | undefined)?.messages);
    expect(sent).toContain('Call it urban green space cooling');
    tmux('send-keys', '-t', session, 'C-c');
    await waitFor('CHAT_EXIT=0');
  }, 180_000);
});
