// The multi-tenant service on SQLite (one data folder per tenant under the storage root).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/contract';
import { fakeProfileYaml, startFakeOpenAI, type FakeOpenAI } from '../../../testing/fake-openai/server';
import { findResourcesDir } from '../config/app-paths';
import { sandboxStatus } from '../sandbox/sandbox';
import type { Core } from '../service/create-core';
import { createJsonLogger } from '../tenancy';
import { taskDir } from '../workspace/layout';
import { tenantDataDir } from '../workspace/storage';
import { createServiceCore, type ServiceCore } from './service-core';
import { teamServiceConfig } from './team-config.test-support';

let root: string | undefined;
let service: ServiceCore | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  if (root) rmSync(root, { recursive: true, force: true });
});

const serviceConfig = (storageRoot: string) => teamServiceConfig(storageRoot, ['--allow-network', '127.0.0.1']);

/** Runs the task's next message to its end, allowing once every call that asks; returns its events. */
function runAllowing(core: Core, taskId: string, runId: string): Promise<RunEvent[]> {
  return new Promise((resolve, reject) => {
    const events: RunEvent[] = [];
    core.events
      .subscribe(taskId, runId, (e) => {
        events.push(e);
        if (e.type === 'approval_required') void core.handlers.decideApproval({ task_id: taskId, run_id: runId, call_id: e.call_id, decision: 'allow_once' }).catch(reject);
        if (e.type === 'run_finished') resolve(events);
      })
      .catch(reject);
  });
}

const noSandbox = sandboxStatus().active ? null : `bubblewrap does not isolate here (install bubblewrap): ${sandboxStatus().reason}`;
if (noSandbox) console.warn(`skipping the tenant isolation test on SQLite: ${noSandbox}`);

describe.skipIf(noSandbox !== null)('tenant isolation on SQLite', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  afterAll(async () => {
    await fake.close();
  });

  it("a tenant's command sees its own task, never another tenant's files", async () => {
    // Not under /tmp: the sandbox's private /tmp would hide it whatever the service does.
    root = mkdtempSync(join('/var/tmp', 'folio-service-core-'));
    for (const tenant of ['acme', 'globex']) {
      mkdirSync(join(tenantDataDir(root, tenant), 'models'), { recursive: true });
      writeFileSync(join(tenantDataDir(root, tenant), 'models', 'fake.yaml'), fakeProfileYaml(fake.url));
    }
    service = await createServiceCore(serviceConfig(root), { dataDir: root, resourcesDir: findResourcesDir() }, createJsonLogger(() => undefined));
    const globex = (await service.resolveCore({ tenant_id: 'globex', user_id: 'gina' }, { headers: {}, params: {} })) as Core;
    const theirs = await globex.handlers.createTask({ mode: 'general', title: 'theirs' });
    const secret = join(taskDir(globex.ctx.dataDir, theirs.id), 'work', 'plan.txt');
    mkdirSync(join(secret, '..'), { recursive: true });
    writeFileSync(secret, 'GLOBEX-CONFIDENTIAL-PLAN');

    const acme = (await service.resolveCore({ tenant_id: 'acme', user_id: 'alice' }, { headers: {}, params: {} })) as Core;
    await acme.ctx.store.settings.set('default_model', 'fake.main');
    const mine = await acme.handlers.createTask({ mode: 'general', title: 'mine' });
    mkdirSync(join(taskDir(acme.ctx.dataDir, mine.id), 'work'), { recursive: true });
    writeFileSync(join(taskDir(acme.ctx.dataDir, mine.id), 'work', 'own.txt'), 'ACME-OWN-NOTE');
    const command = `cat work/own.txt; cat ${secret}; ls ${join(root, 'tenants')}`;
    fake.script([{ toolCalls: [{ name: 'shell', arguments: JSON.stringify({ command }) }] }, { text: 'done' }]);
    const { run_id } = await acme.handlers.sendMessage({ task_id: mine.id, content: 'look around' });
    await runAllowing(acme, mine.id, run_id);
    const output = (await acme.handlers.listMessages({ task_id: mine.id })).messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
    // The command ran (its own file is there), and the other tenant's folder was not.
    expect(output).toContain('ACME-OWN-NOTE');
    expect(output).not.toContain('GLOBEX-CONFIDENTIAL-PLAN');
    expect(output).toMatch(/No such file or directory/u);
    expect(output).not.toMatch(/^globex$/mu);
  });
});

describe('tenant cores on SQLite', () => {
  it('open again at the next request after one failed to open', async () => {
    root = mkdtempSync(join(tmpdir(), 'folio-service-core-'));
    service = await createServiceCore(serviceConfig(root), { dataDir: root, resourcesDir: findResourcesDir() }, createJsonLogger(() => undefined));
    const scope = { tenant_id: 'acme', user_id: 'alice' };
    // A file where the tenant's folder should be: the core cannot open.
    const folder = tenantDataDir(root, 'acme');
    mkdirSync(join(folder, '..'), { recursive: true });
    writeFileSync(folder, 'not a folder');
    await expect(service.resolveCore(scope, { headers: {}, params: {} })).rejects.toThrow();
    rmSync(folder);
    const core = await service.resolveCore(scope, { headers: {}, params: {} });
    expect((await core.handlers.createTask({ mode: 'general', title: 'after the repair' })).title).toBe('after the repair');
  });
});
