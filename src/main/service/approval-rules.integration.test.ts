// The desktop core and a team core decide approvals with the same engine over the same rule data:
// the data folder's approval-rules.json is the person's (user tier) on the desktop and the
// tenant's (team tier) in the team service, where it outranks what a user allowed; a project's
// own file (projects/<id>/approval-rules.json) is the project tier, for that project's tasks only.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../testing/fake-openai/server';
import { APPROVAL_RULES_FILE } from '../agent/policy/rule-file';
import { projectDir, taskDir } from '../workspace/layout';
import { collect, makeCore, makeDataDir, waitForEvent } from './core-test-kit';
import type { Core } from './create-core';

let fake: FakeOpenAI;
const cores: Core[] = [];
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake.close();
});
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
  fake.reset();
});

const writesOnce = (id: string) => [{ toolCalls: [{ id, name: 'write', arguments: JSON.stringify({ path: 'work/w.txt', content: id }) }] }, { text: 'done' }];
const askForWrites = JSON.stringify({ rules: [{ reason: 'writes are reviewed', when: { tool: ['write'] }, decision: 'ask' }] });

/** A core on a data folder with `rules`, the person having chosen "always allow" for write. */
async function coreWith(rules: string | null, teamPolicy: boolean): Promise<Core> {
  const dataDir = makeDataDir(fake.url);
  if (rules !== null) writeFileSync(join(dataDir, APPROVAL_RULES_FILE), rules);
  const core = await makeCore(dataDir, undefined, { teamPolicy });
  cores.push(core);
  await core.handlers.setToolPermission({ name: 'write', always_allow: true });
  return core;
}

async function firstEvents(core: Core, callId: string, projectId?: string) {
  const task = await core.handlers.createTask({ mode: 'general', ...(projectId ? { project_id: projectId } : {}) });
  fake.script(writesOnce(callId));
  const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'write it' });
  return { task, run_id };
}

describe('approval rules as data, one engine for the desktop and the team service', () => {
  it('a team rule in the tenant folder overrides the user’s "always allow"; without it the write runs', async () => {
    const plain = await coreWith(null, true);
    const free = await firstEvents(plain, 'call_free');
    const freeEvents = await collect(plain, free.task.id, free.run_id);
    expect(freeEvents.map((e) => e.type)).not.toContain('approval_required');
    expect(existsSync(join(taskDir(plain.dataDir, free.task.id), 'work', 'w.txt'))).toBe(true);

    const team = await coreWith(askForWrites, true);
    const asked = await firstEvents(team, 'call_team');
    expect(await waitForEvent(team, asked.task.id, asked.run_id, 'approval_required')).toMatchObject({ call_id: 'call_team', name: 'write' });
    expect(existsSync(join(taskDir(team.dataDir, asked.task.id), 'work', 'w.txt'))).toBe(false);
    await team.handlers.cancelRun({ task_id: asked.task.id, run_id: asked.run_id });
  });

  it('the desktop reads the same file as the person’s own rules, through the same engine', async () => {
    const desktop = await coreWith(askForWrites, false);
    const asked = await firstEvents(desktop, 'call_user');
    // The user's own rule outranks the default "granted → allow" (tiers: user > default).
    expect(await waitForEvent(desktop, asked.task.id, asked.run_id, 'approval_required')).toMatchObject({ call_id: 'call_user' });
    await desktop.handlers.cancelRun({ task_id: asked.task.id, run_id: asked.run_id });
  });

  it('a malformed rule file stops the run with an error that names the file, nothing written', async () => {
    const team = await coreWith('{"rules": [{"reason": "x", "when": {}, "decision": "sometimes"}]}', true);
    const run = await firstEvents(team, 'call_bad');
    const events = await collect(team, run.task.id, run.run_id);
    expect(events.find((e) => e.type === 'error')).toMatchObject({ error: { message: expect.stringContaining('approval-rules.json') as string } });
    expect(events.at(-1)).toMatchObject({ reason: 'error' });
    expect(existsSync(join(taskDir(team.dataDir, run.task.id), 'work', 'w.txt'))).toBe(false);
  });

  it('a project’s rules count for its tasks, over the person’s, and go with the project', async () => {
    const desktop = await coreWith(null, false);
    const reviewed = await desktop.handlers.createProject({ name: 'Reviewed' });
    const other = await desktop.handlers.createProject({ name: 'Other' });
    mkdirSync(projectDir(desktop.dataDir, reviewed.id), { recursive: true });
    writeFileSync(join(projectDir(desktop.dataDir, reviewed.id), APPROVAL_RULES_FILE), askForWrites);

    // The other project's task: the person's "always allow" stands.
    const free = await firstEvents(desktop, 'call_other', other.id);
    expect((await collect(desktop, free.task.id, free.run_id)).map((e) => e.type)).not.toContain('approval_required');

    // The project's own rule (project tier) outranks the person's grant.
    const asked = await firstEvents(desktop, 'call_project', reviewed.id);
    expect(await waitForEvent(desktop, asked.task.id, asked.run_id, 'approval_required')).toMatchObject({ call_id: 'call_project', name: 'write' });
    expect(existsSync(join(taskDir(desktop.dataDir, asked.task.id), 'work', 'w.txt'))).toBe(false);
    await desktop.handlers.cancelRun({ task_id: asked.task.id, run_id: asked.run_id });

    await desktop.handlers.deleteProject({ project_id: reviewed.id });
    expect(existsSync(projectDir(desktop.dataDir, reviewed.id))).toBe(false);
  });

  it('a malformed project rule file stops the run, naming the file inside the data folder', async () => {
    const desktop = await coreWith(null, false);
    const project = await desktop.handlers.createProject({ name: 'Broken' });
    mkdirSync(projectDir(desktop.dataDir, project.id), { recursive: true });
    writeFileSync(join(projectDir(desktop.dataDir, project.id), APPROVAL_RULES_FILE), '{"rules": [');
    const run = await firstEvents(desktop, 'call_broken', project.id);
    const events = await collect(desktop, run.task.id, run.run_id);
    const message = (events.find((e) => e.type === 'error') as { error: { message: string } } | undefined)?.error.message ?? '';
    expect(message).toContain(`projects/${project.id}/approval-rules.json: not JSON`);
    expect(message).not.toContain(desktop.dataDir);
    expect(existsSync(join(taskDir(desktop.dataDir, run.task.id), 'work', 'w.txt'))).toBe(false);
  });
});
