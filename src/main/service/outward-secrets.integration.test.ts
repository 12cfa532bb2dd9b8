// Every secret Folio holds (model profiles' keys from the environment and the key store, the web
// search backend's key, MCP servers' env values) stays out of everything a run sends outward: the
// model's requests, tool results (and so the stored conversation), run events (the approval card
// included), in plain text and in the simple disguises a file or a model may carry.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/contract';
import type { FakeOpenAI } from '../../../testing/fake-openai/server';
import { mcpConfigPath } from '../mcp/config';
import { taskDir } from '../workspace/layout';
import { fakeModelsYaml, makeDataDir, TEST_KEY } from './core-test-kit';
import type { Core } from './create-core';
import { useFakeModelCores } from './fake-model-cores.test-support';

let fake: FakeOpenAI;
const { open } = useFakeModelCores((f) => (fake = f));

const OTHER_PROVIDER_KEY = 'sk-other-provider-7f3a9c2e51d8';
const SEARCH_KEY = 'brave-search-key-4b8e2d6a91';
const MCP_SECRET = 'mcp-notes-token-93c1a7e5f2';

const reversed = (s: string) => [...s].reverse().join('');
/** Each secret, and each disguise the scrubber knows, as the task's files or a model may carry them. */
const copies = [
  TEST_KEY,
  OTHER_PROVIDER_KEY,
  SEARCH_KEY,
  MCP_SECRET,
  Buffer.from(OTHER_PROVIDER_KEY).toString('base64'),
  Buffer.from(SEARCH_KEY).toString('hex'),
  reversed(TEST_KEY),
  [...MCP_SECRET].join(' '),
  SEARCH_KEY.toUpperCase(),
];

/** Runs the task's next message to its end, denying every call that asks; returns its events and the questions as stored. */
function runDenying(core: Core, taskId: string, runId: string): Promise<{ events: RunEvent[]; stored: unknown[] }> {
  return new Promise((resolve, reject) => {
    const events: RunEvent[] = [];
    const stored: unknown[] = [];
    const deny = async (callId: string) => {
      stored.push(...(await core.ctx.store.approvals.list(taskId)));
      await core.handlers.decideApproval({ task_id: taskId, run_id: runId, call_id: callId, decision: 'deny' });
    };
    core.events
      .subscribe(taskId, runId, (e) => {
        events.push(e);
        if (e.type === 'approval_required') deny(e.call_id).catch(reject);
        if (e.type === 'run_finished') resolve({ events, stored });
      })
      .catch(reject);
  });
}

describe('secrets stay out of every outward surface', () => {
  it('scrubs every secret source, and its encodings, from requests, results, events and stored approvals', async () => {
    const dataDir = makeDataDir(fake.url);
    writeFileSync(join(dataDir, 'models', 'other.yaml'), fakeModelsYaml(fake.url).replace(/api_key_env: \S+/u, 'api_key_env: OTHER_PROVIDER_KEY').replace(/^provider: \S+/mu, 'provider: other'));
    writeFileSync(mcpConfigPath(dataDir), JSON.stringify({ mcpServers: { notes: { command: 'node', args: ['notes-server.js'], env: { NOTES_TOKEN: MCP_SECRET } } } }));
    const core = await open(dataDir);
    await core.handlers.updateSettings({ search: { backend: 'brave', url: 'http://127.0.0.1:9/search', api_key_env: 'BRAVE_KEY' } });
    await core.handlers.setApiKey({ env: 'BRAVE_KEY', key: SEARCH_KEY });
    await core.handlers.setApiKey({ env: 'OTHER_PROVIDER_KEY', key: OTHER_PROVIDER_KEY });

    const task = await core.handlers.createTask({ mode: 'general' });
    mkdirSync(join(taskDir(dataDir, task.id), 'source'), { recursive: true });
    writeFileSync(join(taskDir(dataDir, task.id), 'source', 'config-notes.txt'), `Keys found in the old config:\n${copies.join('\n')}\n`);
    fake.script([
      {
        toolCalls: [
          { name: 'read', arguments: JSON.stringify({ path: 'source/config-notes.txt' }) },
          // A model that learnt a key elsewhere: the card that asks must not show it.
          { name: 'write', arguments: JSON.stringify({ path: 'work/keys.txt', content: `key=${TEST_KEY} search=${SEARCH_KEY}` }) },
        ],
      },
      { text: 'done' },
    ]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: `My provider key is ${OTHER_PROVIDER_KEY}; why does it fail?` });
    const { events, stored } = await runDenying(core, task.id, run_id);

    expect(events.map((e) => e.type)).toContain('approval_required');
    expect(stored).toHaveLength(1);
    const read = events.find((e) => e.type === 'tool_result' && e.name === 'read');
    expect(read?.type === 'tool_result' && read.preview).toMatch(/Keys found in the old config/u);
    const toolMessages = (await core.handlers.listMessages({ task_id: task.id })).messages.filter((m) => m.role === 'tool');
    const surfaces = {
      events: JSON.stringify(events),
      requests: JSON.stringify(fake.requests.map((r) => r.body)),
      results: JSON.stringify(toolMessages),
      approvals: JSON.stringify(stored),
    };
    for (const [surface, text] of Object.entries(surfaces)) {
      for (const copy of copies) expect(text.toLowerCase(), `${surface} carries ${copy}`).not.toContain(copy.toLowerCase());
    }
    expect(surfaces.results).toContain('••••');
  });
});
