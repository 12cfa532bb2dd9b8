// The key screens, looked at: each is compared with a reviewed baseline at 1280×800 and 900×700, in
// English and in Chinese, and checked with axe-core (no serious or critical violation). One Folio of
// its own per language (a fresh data folder, so the task list is the same on every run) and the fake
// model. To add a screen: drive the UI there, then `await checkScreen(page, 'name', lang)`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Page } from '@playwright/test';
import { createTask, expect, test } from './support/fixtures';
import { resetModel, scriptModel } from './support/fake-model';
import { expectRunsDone, sendMessage } from './support/flows';
import { folioApi, type FolioServer, startIsolatedFolio } from './support/folio-server';
import { fakeProfileYaml } from './support/global-setup';
import { repoRoot } from './support/processes';
import { checkScreen, type ScreenLanguage } from './support/screens';

const EVERYTHING = join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const copy = {
  en: {
    ask: 'Summarise what we know about urban heat islands.',
    streamed: 'Urban heat islands are city areas that stay warmer than the countryside around them. Three causes stand out: dark surfaces that store heat, little green cover, and waste heat from',
    answer: 'Cities run about 2.5 °C hotter than the countryside in summer. More green cover is the strongest lever.',
    shell: 'ls -la work',
    url: 'https://example.org/heat-islands',
    file: '# Heat islands\n\nCities are 2.5 °C hotter in summer.\n',
  },
  'zh-CN': {
    ask: '总结一下我们对城市热岛的了解。',
    streamed: '城市热岛是指比周围乡村更温暖的城市区域。主要原因有三个：深色地表储存热量、绿化覆盖少，以及来自交通和空调的',
    answer: '夏季城市比乡村高约 2.5 °C。增加绿化覆盖是最有效的办法。',
    shell: 'ls -la work',
    url: 'https://example.org/heat-islands',
    file: '# 城市热岛\n\n夏季城市比乡村高 2.5 °C。\n',
  },
} as const;

async function startScreensFolio(dataDir: string, language: ScreenLanguage, withKey: boolean): Promise<FolioServer & { stop: () => Promise<void> }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.endsWith('_API_KEY')));
  const folio = await startIsolatedFolio(dataDir, withKey ? { ...env, FAKE_API_KEY: 'x' } : env);
  await folioApi(folio, 'PATCH', '/v1/settings', { language, ...(withKey ? { default_model: 'fake.chat' } : {}) });
  return folio;
}

/** Answers the pending approval card with Deny (the run goes on with the refusal). */
async function deny(page: Page): Promise<void> {
  const callId = await page.getByTestId('approval-card').getAttribute('data-call-id');
  const card = page.locator(`[data-testid="approval-card"][data-call-id="${callId}"]`);
  await card.getByTestId('approval-deny').click();
  const confirm = card.getByTestId('approval-deny-confirm');
  if (await confirm.isVisible()) await confirm.click();
  await expect(card).toHaveCount(0);
}

for (const language of ['en', 'zh-CN'] as const) {
  test(`key screens (${language})`, async ({ page, browser }) => {
    // Two sizes, axe at each, on a machine other jobs share.
    test.setTimeout(900_000);
    const fakeUrl = process.env.FAKE_OPENAI_URL!;
    const dataDir = mkdtempSync(join(tmpdir(), `folio-e2e-screens-${language}-`));
    mkdirSync(join(dataDir, 'models'), { recursive: true });
    writeFileSync(join(dataDir, 'models', 'fake.yaml'), fakeProfileYaml(fakeUrl));
    writeFileSync(join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }, null, 2));
    const t = copy[language];

    // Setup: no key for the only model, so nothing is usable yet.
    let folio = await startScreensFolio(dataDir, language, false);
    try {
      await page.goto(folio.appUrl);
      await expect(page.getByTestId('setup-screen')).toBeVisible();
      await checkScreen(page, 'setup', language);
    } finally {
      await folio.stop();
    }

    folio = await startScreensFolio(dataDir, language, true);
    try {
      // The no-token page: the address as a bookmark keeps it, without ?token.
      // A browser of its own, in the screen's language (without a token, no setting can be read).
      const context = await browser.newContext({ locale: language });
      try {
        const stranger = await context.newPage();
        await stranger.goto(folio.origin);
        await expect(stranger.getByTestId('no-token')).toBeVisible();
        await checkScreen(stranger, 'no-token', language);
      } finally {
        await context.close();
      }

      await page.goto(folio.appUrl);
      await expect(page.getByTestId('setup-screen')).toHaveCount(0);
      await createTask(page, 'general');
      await checkScreen(page, 'empty-task', language);

      // Streaming: the model stops sending mid-sentence and keeps the stream open.
      // (A second stall in case the idle watchdog retries while the screens are taken.)
      const stall = { fault: 'stall', afterChunks: 8, text: t.streamed } as const;
      await scriptModel([stall, stall]);
      await sendMessage(page, t.ask);
      await expect(page.getByTestId('chat-view')).toContainText(t.streamed.slice(0, 20));
      await checkScreen(page, 'streaming', language);
      await page.getByTestId('cancel-run').click();
      await expect(page.getByTestId('chat-view')).toHaveAttribute('data-running', 'false');
      await resetModel();

      // Approval cards, default mode (ask every time): a command, a network fetch, a file write.
      await scriptModel([
        { toolCalls: [{ name: 'shell', arguments: JSON.stringify({ command: t.shell }) }] },
        { toolCalls: [{ name: 'web_fetch', arguments: JSON.stringify({ url: t.url }) }] },
        { toolCalls: [{ name: 'write', arguments: JSON.stringify({ path: 'work/notes.md', content: t.file }) }] },
        { text: t.answer },
      ]);
      await sendMessage(page, t.ask);
      for (const kind of ['shell', 'network', 'write']) {
        await expect(page.getByTestId('approval-card')).toBeInViewport();
        await checkScreen(page, `approval-${kind}`, language);
        await deny(page);
      }
      await expectRunsDone(page, 2);

      // Settings, then its MCP servers section.
      await page.getByTestId('nav-settings').click();
      await expect(page.getByTestId('settings-page')).toBeVisible();
      await checkScreen(page, 'settings', language);
      const mcp = page.getByTestId('mcp-section');
      await mcp.scrollIntoViewIfNeeded();
      await expect(mcp.getByTestId('mcp-server')).toHaveCount(1);
      await expect(mcp.getByTestId('mcp-status').first()).toHaveAttribute('data-status', 'connected', { timeout: 30_000 });
      await checkScreen(page, 'mcp-servers', language);
    } finally {
      await folio.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
