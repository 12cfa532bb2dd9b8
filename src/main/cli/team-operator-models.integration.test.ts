// Models the operator offers every tenant: a profile file given at start, its key from a secrets
// file, used by two tenants that brought no key; one tenant's monthly money budget (cost_per_month)
// stops its next call to the operator's model with a typed error that says what ran out, while the
// other tenant goes on. A tenant cannot redefine the operator's profile to send its key elsewhere.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelProfileInfo, Run, Task } from '../../shared/contract/entities';
import { pgSkipReason } from '../../../testing/postgres/test-database';
import { offerOperatorModels } from '../models';
import pg from 'pg';
import { startTeamServer, type TeamServer } from './team-server.test-support';
import { filesHolding, tablesHolding } from './team-traces.test-support';

const skip = pgSkipReason();
if (skip !== null) console.warn(`team operator-model tests skipped: ${skip}`);

const OPERATOR_KEY = 'sk-operator-secret-7781';

interface UsageAnswer {
  total: { prompt_tokens: number; completion_tokens: number; cost: number };
  quotas: { name: string; limit: number | null; used: number | null }[];
}

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, `${res.url}: ${text}`).toBe(status);
  return JSON.parse(text) as T;
}

describe.skipIf(skip !== null)('team service: models the operator offers every tenant', () => {
  let s: TeamServer;
  const dir = mkdtempSync(join(tmpdir(), 'folio-operator-'));

  beforeAll(async () => {
    // The tenants have no model of their own: only the operator's.
    s = await startTeamServer([], ['--operator-models', join(dir, 'platform.yaml'), '--operator-secrets', join(dir, 'secrets.env')], {}, (root, fake) => {
      writeFileSync(
        join(dir, 'platform.yaml'),
        ['provider: platform', `api_base: ${JSON.stringify(fake.url)}`, 'api_key_env: PLATFORM_MODEL_KEY', 'currency: EUR', 'profiles:', '  main:', '    name: Platform model', '    model: fake-model', '    max_context: 32768', '    max_output: 4096', '    price: { input: 1.0, output: 2.0 }', ''].join('\n'),
      );
      writeFileSync(join(dir, 'secrets.env'), `# mounted by the orchestrator\nPLATFORM_MODEL_KEY=${OPERATOR_KEY}\n`);
      // globex tries to point the operator's profile at its own server.
      mkdirSync(join(root, 'tenants', 'globex', 'models'), { recursive: true });
      writeFileSync(join(root, 'tenants', 'globex', 'models', 'platform.yaml'), 'provider: platform\napi_base: "http://127.0.0.1:9/v1"\napi_key_env: PLATFORM_MODEL_KEY\nprofiles:\n  main:\n    model: stolen\n');
    });
    await s.setQuotas('globex', { cost_per_month: 0.05 });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    offerOperatorModels(null);
    rmSync(dir, { recursive: true, force: true });
  });

  async function runOnce(tenant: string, user: string, taskId: string, usage: { prompt: number; completion: number }): Promise<Run> {
    s.fake.script([{ text: 'Answer.', usage }]);
    const { run_id: runId } = await json<{ run_id: string }>(await s.as(tenant, user, `/v1/tasks/${taskId}/messages`, { method: 'POST', json: { content: 'Hi' } }), 200);
    for (let i = 0; i < 400; i++) {
      const { runs } = await json<{ runs: Run[] }>(await s.as(tenant, user, `/v1/tasks/${taskId}/runs`), 200);
      const run = runs.find((r) => r.id === runId);
      if (run && run.status !== 'running') return run;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`run ${runId} did not end`);
  }

  it('serves both tenants with the operator key, and stops the one over its money budget with BudgetExceededError', async () => {
    for (const [tenant, user] of [['acme', 'alice'], ['globex', 'gina']]) {
      const { profiles } = await json<{ profiles: ModelProfileInfo[] }>(await s.as(tenant, user, '/v1/models'), 200);
      expect(profiles.find((p) => p.id === 'platform.main')).toMatchObject({ source: 'operator', has_key: true, model: 'fake-model' });
    }
    const acme = await json<Task>(await s.as('acme', 'alice', '/v1/tasks', { method: 'POST', json: { mode: 'general', model: 'platform.main', title: 'a' } }), 201);
    const globex = await json<Task>(await s.as('globex', 'gina', '/v1/tasks', { method: 'POST', json: { mode: 'general', model: 'platform.main', title: 'g' } }), 201);

    // 30,000 prompt and 10,000 completion tokens at 1 and 2 EUR per million: 0.05 EUR, globex's whole budget.
    expect((await runOnce('globex', 'gina', globex.id, { prompt: 30_000, completion: 10_000 })).status).toBe('done');
    expect(s.fake.requests.at(-1)).toMatchObject({ path: '/v1/chat/completions', authLast4: OPERATOR_KEY.slice(-4) });
    const chats = s.fake.requests.length;
    const stopped = await runOnce('globex', 'gina', globex.id, { prompt: 1, completion: 1 });
    expect(stopped.status).toBe('failed');
    expect(stopped.error).toMatch(/^Model budget this month: 0\.05 of 0\.05 EUR spent on the models the service provides \(tenant globex\)\. It resets on \d{4}-\d{2}-01; until then use a model with your own key, or ask the operator to raise cost_per_month\.$/u);
    expect(s.fake.requests.length).toBe(chats);
    s.fake.reset();

    // acme shares the model and has no budget: it goes on, past what stopped globex.
    for (let i = 0; i < 2; i++) expect((await runOnce('acme', 'alice', acme.id, { prompt: 30_000, completion: 10_000 })).status).toBe('done');

    const usage = await json<UsageAnswer>(await s.as('globex', 'gina', '/v1/usage'), 200);
    expect(usage.quotas).toContainEqual({ name: 'cost_per_month', limit: 0.05, used: 0.05 });
    // The tokens are counted as ever, and the money once (not twice).
    expect(usage.total).toMatchObject({ prompt_tokens: 30_000, completion_tokens: 10_000 });
    expect(usage.total.cost).toBeCloseTo(0.05, 6);

    // The operator's key went to the operator's provider only, and is kept nowhere of the service's.
    const db = new pg.Client({ connectionString: s.databaseUrl });
    await db.connect();
    try {
      expect(await tablesHolding(db, OPERATOR_KEY)).toEqual([]);
    } finally {
      await db.end();
    }
    expect(filesHolding(s.storageRoot, OPERATOR_KEY)).toEqual([]);
    expect(s.lines.join('\n')).not.toContain(OPERATOR_KEY);
  }, 60_000);
});
