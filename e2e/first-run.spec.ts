// A first run with no usable model: the setup opens by itself; skipping it, a message fails at once
// with a button back to the setup; a custom OpenAI-compatible provider (the fake model's base URL and a
// key) is added, tested with the probe and used for a conversation.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTask, expect, test } from './support/fixtures';
import { recordedRequests, scriptModel } from './support/fake-model';
import { startIsolatedFolio } from './support/folio-server';

const KEY = 'sk-e2e-first-run-5678';
const reply = 'Hello from the fake model, set up just now';

test('first run: setup opens, a custom provider is added and tested, then a message gets its reply', async ({ page, fakeModel }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-e2e-first-run-'));
  // Nothing set up: no key of any provider in the environment, no model files of our own.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.endsWith('_API_KEY')));
  const folio = await startIsolatedFolio(dataDir, env);
  try {
    await page.goto(folio.appUrl);
    const setup = page.getByTestId('setup-screen');
    await expect(setup).toBeVisible();
    await expect(setup).toContainText('none is usable yet');

    // Skipped: a message fails at once, says what to set up, and leads back to the setup.
    await page.getByTestId('setup-done').click();
    await expect(setup).toBeHidden();
    await createTask(page, 'general');
    const input = page.getByTestId('composer-input');
    await input.fill('Hello?');
    await input.press('Enter');
    const error = page.getByTestId('chat-error');
    await expect(error).toContainText('No model is set up: open Settings → Models');
    await expect(input).toHaveValue('Hello?');
    await error.getByTestId('chat-error-setup').click();
    await expect(setup).toBeVisible();

    // A custom OpenAI-compatible server: base URL + key, its models read from GET /models.
    await page.getByTestId('setup-custom').click();
    await page.getByTestId('setup-custom-base').fill(fakeModel.url);
    await page.getByTestId('setup-custom-key').fill(KEY);
    await page.getByTestId('setup-custom-name').fill('Fake LAN');
    await page.getByTestId('setup-load-models').click();
    const option = page.getByTestId('setup-model-option');
    await expect(option).toHaveCount(1);
    await expect(option).toHaveAttribute('data-model', 'fake-model');
    await expect(option).toBeChecked();
    await page.getByTestId('setup-add-provider').click();

    // Test runs the probe: a plain reply, then the tool-call check (answered without tools).
    await scriptModel([{ text: 'pong' }, { text: 'no tools needed' }]);
    await page.getByTestId('setup-test').click();
    const result = page.getByTestId('setup-test-result');
    await expect(result).toHaveAttribute('data-ok', 'true');
    // The model by the name the person gave its provider, never its profile id.
    await expect(result).toContainText('Fake LAN answered');
    await expect(result).not.toContainText('fake-lan.');
    await page.getByTestId('setup-done').click();
    await expect(setup).toBeHidden();

    // The key is in the key store, never in the profile file.
    expect(readdirSync(join(dataDir, 'models'))).toEqual(['fake-lan.yaml']);
    const profileFile = readFileSync(join(dataDir, 'models', 'fake-lan.yaml'), 'utf8');
    expect(profileFile).toContain('api_key_env: FOLIO_FAKE_LAN_API_KEY');
    expect(profileFile).not.toContain(KEY);

    await scriptModel([{ text: reply }]);
    await expect(page.getByTestId('chat-view')).toBeVisible();
    await input.fill('Hello again');
    await input.press('Enter');
    const chat = page.getByTestId('chat-view');
    await expect(chat.getByTestId('assistant-message')).toContainText(reply);
    await expect(chat.getByTestId('run-footer')).toHaveAttribute('data-run-status', 'done');
    // The task names the model as the setup did: the picker's default and the run footer, the model id as a tooltip.
    await expect(page.getByTestId('model-picker').locator('option[value=""]')).toHaveText('Default (Fake LAN)');
    const runModel = chat.getByTestId('run-footer').locator('.run-model');
    await expect(runModel).toHaveText('Fake LAN');
    await expect(runModel).toHaveAttribute('title', 'fake-model');
    const requests = await recordedRequests();
    const listing = requests.find((r) => r.method === 'GET' && r.path === '/v1/models') as { authLast4?: string } | undefined;
    expect(listing?.authLast4).toBe(KEY.slice(-4));
    const last = requests.at(-1) as { path: string; body: { model: string }; authLast4?: string };
    expect(last).toMatchObject({ path: '/v1/chat/completions', body: { model: 'fake-model' }, authLast4: KEY.slice(-4) });
  } finally {
    await folio.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
