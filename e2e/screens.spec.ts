// The key screens, looked at: each is compared with a reviewed baseline at 1280×800 and 900×700, in
// English and in Chinese, and checked with axe-core (no serious or critical violation). One Folio of
// its own per language (a fresh data folder, so the task list is the same on every run) and the fake
// model. To add a screen: drive the UI there, then `await checkScreen(page, 'name', lang)`.
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Page } from '@playwright/test';
import { buildTemplate } from '../src/main/renderers/deck/templates/fixture.test-support';
import { writeAndRenderDeck } from './support/deck-task';
import { createTask, expect, test } from './support/fixtures';
import { fakeProfileYaml, resetModel, scriptModel } from './support/fake-model';
import { expectRunsDone, sendMessage, setApprovalMode, textPdf } from './support/flows';
import { folioApi, type FolioServer, startIsolatedFolio } from './support/folio-server';
import { repoRoot } from './support/processes';
import { checkScreen, type ScreenLanguage } from './support/screens';

const EVERYTHING = join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** A six-slide deck in the screen's language: a title, two bullet slides, a chart, a closing slide. */
interface ScreenSlide {
  layout: string;
  title: string;
  bullets?: string[];
  chart?: { type: string; categories: string[]; series: { name: string; values: number[] }[] };
}

function deckSpec(title: string, first: [string, string[]], second: [string, string[]], chartTitle: string, categories: string[], closing: string): { title: string; slides: ScreenSlide[] } {
  return {
    title,
    slides: [
      { layout: 'title', title },
      { layout: 'bullets', title: first[0], bullets: first[1] },
      { layout: 'bullets', title: second[0], bullets: second[1] },
      { layout: 'chart', title: chartTitle, chart: { type: 'column', categories, series: [{ name: chartTitle, values: [1.5, 0.8, 0.5] }] } },
      { layout: 'closing', title: closing },
    ],
  };
}

/** The deck with slide 3 (id s3) turned into a chart, every other slide as render_deck numbered it. */
function deckWithChart(deck: ReturnType<typeof deckSpec>) {
  const chart = deck.slides[3].chart!;
  return {
    title: deck.title,
    slides: deck.slides.map((slide, i) =>
      i === 2
        ? { id: 's3', layout: 'chart', title: slide.title, chart: { ...chart, type: 'bar', categories: chart.categories.slice(0, 2), series: [{ name: slide.title, values: [0.8, 0.3] }] } }
        : { id: `s${i + 1}`, ...slide },
    ),
  };
}

const copy = {
  en: {
    ask: 'Summarise what we know about urban heat islands.',
    streamed: 'Urban heat islands are city areas that stay warmer than the countryside around them. Three causes stand out: dark surfaces that store heat, little green cover, and waste heat from',
    answer:
      '## What the notes say\n\nCities run about **2.5 °C** hotter than the countryside in summer. More green cover is the strongest lever.\n\n| Measure | Cooling |\n| --- | --- |\n| Street trees | 1.0–1.5 °C |\n| Cool roofs | 0.5–1.0 °C |\n\n1. Map the hottest blocks.\n2. Plant where people walk.\n\n```python\nhot = temps[temps > 35]\nprint(len(hot))\n```',
    shell: 'ls -la work',
    url: 'https://example.org/heat-islands',
    file: '# Heat islands\n\nCities are 2.5 °C hotter in summer.\n',
    deckAsk: 'Make a 4-slide deck about urban heat islands',
    deckRequest: 'Make a deck from my notes on urban heat islands',
    deckReply: 'Your deck is ready.',
    changeAsk: 'Make this a chart',
    changedReply: 'Slide 3 is now a chart.',
    deck: deckSpec('Urban heat islands', ['Cities run 2.5 °C hotter in summer', ['12 weather stations', 'Worst on summer afternoons']], ['Green cover cools the most', ['+10% green cover: −0.8 °C', 'Water helps less than shade']], 'Cooling per measure (°C)', ['Street trees', 'Cool roofs', 'Water'], 'Thank you'),
    proposalAsk: 'Write the proposal from the locked spec.',
    proposal: { title: 'Cooling cities with green space', sections: { '01_background.md': '# Background\n\nCities run 2.5 °C hotter than the countryside in summer.\n\n## Why it matters\n\nHeat waves hit dense districts hardest.\n', '02_aims.md': '# Aims\n\nMeasure how much each kind of green space cools the streets around it.\n' } },
    proposalReply: 'The proposal is ready.',
    plan: '# Plan\n\n- Funder: city research fund, up to 6 pages\n- Core idea: measure how much each kind of green space cools the streets around it\n\n## Open questions\n\n1. Is the title “Cooling cities with green space” right?',
    project: 'Heat island study',
    library: ['Field notes, page one: stations and instruments.', 'Page two: street trees cooled the pavement by 1.5 °C at noon.'],
    search: 'street trees',
    outline: [
      { title: 'Urban heat islands', layout: 'title' },
      { title: 'Cities run 2.5 °C hotter in summer', layout: 'stat', points: ['12 weather stations', 'Worst on summer afternoons'] },
      { title: 'Green space cools the most', layout: 'bullets', points: ['+10% green cover: −0.8 °C', 'Water helps less than shade'] },
      { title: 'Thank you', layout: 'closing' },
    ],
  },
  'zh-CN': {
    ask: '总结一下我们对城市热岛的了解。',
    streamed: '城市热岛是指比周围乡村更温暖的城市区域。主要原因有三个：深色地表储存热量、绿化覆盖少，以及来自交通和空调的',
    answer:
      '## 笔记要点\n\n夏季城市比乡村高约 **2.5 °C**。增加绿化覆盖是最有效的办法。\n\n| 措施 | 降温 |\n| --- | --- |\n| 行道树 | 1.0–1.5 °C |\n| 冷屋顶 | 0.5–1.0 °C |\n\n1. 标出最热的街区。\n2. 在步行处种树。\n\n```python\nhot = temps[temps > 35]\nprint(len(hot))\n```',
    shell: 'ls -la work',
    url: 'https://example.org/heat-islands',
    file: '# 城市热岛\n\n夏季城市比乡村高 2.5 °C。\n',
    deckAsk: '做一份关于城市热岛的 4 页幻灯片',
    deckRequest: '根据我的城市热岛笔记做一份幻灯片',
    deckReply: '幻灯片已生成。',
    changeAsk: '把这页改成图表',
    changedReply: '第 3 页已改为图表。',
    deck: deckSpec('城市热岛', ['夏季城市比乡村高 2.5 °C', ['12 个气象站', '夏季午后最明显']], ['绿地降温效果最好', ['绿化覆盖 +10%：−0.8 °C', '水体不如遮荫']], '各措施降温（°C）', ['行道树', '冷屋顶', '水体'], '谢谢'),
    proposalAsk: '按锁定的规格撰写申请书。',
    proposal: { title: '城市绿地降温机制研究', sections: { '01_background.md': '# 研究背景\n\n夏季城市比乡村高约 2.5 °C。\n\n## 研究意义\n\n热浪对高密度街区的影响最大。\n', '02_aims.md': '# 研究目标\n\n测量不同类型绿地对周边街道的降温幅度。\n' } },
    proposalReply: '申请书已生成。',
    plan: '# 规格锁定\n\n- 资助类别：国家自然科学基金青年科学基金，正文约 8000 字\n- 核心思路：测量不同类型绿地对周边街道的降温幅度\n\n## 待确认事项\n\n1. 项目名称是否为“城市绿地降温机制研究”？',
    project: '城市热岛研究',
    library: ['野外笔记第一页：气象站与仪器。', '第二页：行道树使正午路面降温 1.5 °C。'],
    search: '行道树',
    outline: [
      { title: '城市热岛', layout: 'title' },
      { title: '夏季城市比乡村高 2.5 °C', layout: 'stat', points: ['12 个气象站', '夏季午后最明显'] },
      { title: '绿地降温效果最好', layout: 'bullets', points: ['绿化覆盖 +10%：−0.8 °C', '水体不如遮荫'] },
      { title: '谢谢', layout: 'closing' },
    ],
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

/**
 * The right panel on screen at the current size: beside the chat when wide, as the drawer when narrow
 * (closed whenever the window crosses the narrow width, so opened again after each resize).
 */
async function showPanel(page: Page): Promise<void> {
  // Two frames: the media query's change (wide or narrow) reaches the layout store in the first.
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(undefined))))');
  const toggle = page.getByTestId('panel-toggle');
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('artifact-preview')).toBeVisible();
}

// No action waits longer than this: a control that never shows fails the test instead of using up its time.
test.use({ actionTimeout: 20_000 });

for (const language of ['en', 'zh-CN'] as const) {
  test(`key screens (${language})`, async ({ page, browser, fakeModel }) => {
    // Two sizes, axe at each, on a machine other jobs share.
    test.setTimeout(900_000);
    // A fixed folder: the MCP screen prints the config's path, and a random one would change the image.
    const dataDir = join(tmpdir(), `folio-e2e-screens-${language}`);
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    mkdirSync(join(dataDir, 'models'), { recursive: true });
    writeFileSync(join(dataDir, 'models', 'fake.yaml'), fakeProfileYaml(fakeModel.url));
    // The config is on screen: the server is reached through the fixed folder and PATH's node, not
    // this checkout's path or this machine's node.
    symlinkSync(EVERYTHING, join(dataDir, 'everything.js'));
    writeFileSync(join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: { everything: { command: 'node', args: [join(dataDir, 'everything.js')] } } }, null, 2));
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

      // The header shows the network switch once the capabilities are known (the first ask probes
      // the sandbox and Python, about a second on a loaded machine): the screen waits for that answer.
      const capabilities = page.waitForResponse((response) => new URL(response.url()).pathname === '/v1/capabilities');
      await page.goto(folio.appUrl);
      await expect(page.getByTestId('setup-screen')).toHaveCount(0);
      await createTask(page, 'general');
      await capabilities;
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
      // The conversation so far: a cut-off answer, three refused calls, a formatted answer.
      await expect(page.getByTestId('chat-view').locator('table')).toBeVisible();
      await checkScreen(page, 'conversation', language, {
        ready: async (p) => {
          // The answer follows its question closely: no empty row of message tools between them.
          const gap = await p.evaluate<number>(`(() => {
            const rows = [...document.querySelectorAll('.message-row')];
            const i = rows.findIndex((row, k) => row.querySelector('[data-testid="user-message"]') && rows[k + 1]?.querySelector('[data-testid="assistant-message"]'));
            const question = rows[i].querySelector('.msg-bubble').getBoundingClientRect();
            const answer = rows[i + 1].querySelector('[data-testid="assistant-message"] > *').getBoundingClientRect();
            return answer.top - question.bottom;
          })()`);
          expect(gap, 'space between the question and its answer').toBeLessThan(28);
        },
      });

      // The header beside the open panel (or its drawer): the title, then its controls in one row,
      // with the less-used ones in the task options menu, shown open.
      await checkScreen(page, 'task-options', language, {
        ready: async (p) => {
          const centres = await p.evaluate<number[]>("[...document.querySelectorAll('.chat-controls > *')].map((el) => { const r = el.getBoundingClientRect(); return (r.top + r.bottom) / 2; })");
          expect(Math.max(...centres) - Math.min(...centres), 'the header controls keep to one row').toBeLessThan(4);
          if (!(await p.getByTestId('task-options-popover').isVisible())) await p.getByTestId('task-options').click();
          await expect(p.getByTestId('task-project-picker')).toBeVisible();
        },
      });
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('task-options-popover')).toHaveCount(0);

      // Tab from the task list goes through the conversation to the composer, then its send button,
      // before anything in the right-hand panel.
      await page.getByTestId('composer-input').fill(t.ask);
      await page.locator('[data-testid="task-item"][aria-current="true"] .task-main').focus();
      const stops: { id: string; region: string }[] = [];
      for (let i = 0; i < 80 && !stops.some((s) => s.id === 'composer-send'); i++) {
        await page.keyboard.press('Tab');
        // A string: the e2e build has no DOM types.
        stops.push(
          await page.evaluate<{ id: string; region: string }>(`(() => {
            const el = document.activeElement;
            const region = el.closest('.sidebar') ? 'sidebar' : el.closest('.files-panel') ? 'panel' : el.closest('main') ? 'main' : 'other';
            return { id: el.getAttribute('data-testid') || el.tagName.toLowerCase(), region };
          })()`),
        );
      }
      const ids = stops.map((s) => s.id);
      expect(ids).toContain('composer-send');
      expect(ids.indexOf('composer-input')).toBeGreaterThan(-1);
      expect(ids.indexOf('composer-input')).toBeLessThan(ids.indexOf('composer-send'));
      const regions = stops.map((s) => s.region);
      // Sidebar first, then the chat; never the panel on the way.
      expect(regions).not.toContain('panel');
      expect(regions.lastIndexOf('sidebar')).toBeLessThan(regions.indexOf('main'));
      await page.getByTestId('composer-input').fill('');

      // The shortcuts help.
      await page.getByTestId('shortcuts-open').click();
      await expect(page.getByTestId('shortcuts-help')).toBeVisible();
      await checkScreen(page, 'shortcuts', language);
      await page.getByTestId('shortcuts-close').click();

      // Settings: one screen per section, reached through the page's navigation.
      await page.getByTestId('nav-settings').click();
      await expect(page.getByTestId('settings-page')).toBeVisible();
      await checkScreen(page, 'settings', language);
      const nav = page.getByTestId('settings-nav');
      for (const section of ['models-section', 'skills-section', 'search-section']) {
        await nav.locator(`[data-section="${section}"]`).click();
        await expect(nav.locator(`[data-section="${section}"]`)).toHaveAttribute('aria-current', 'true');
        await expect(page.getByTestId(section)).toBeInViewport();
        await checkScreen(page, `settings-${section.replace(/-section$/u, '')}`, language, {
          ready: async (p) => {
            await p.getByTestId(section).evaluate('(el) => el.scrollIntoView({ block: "start" })');
          },
        });
      }

      // MCP servers: started, then switched off and on, then removed from mcp.json.
      await nav.locator('[data-section="mcp-section"]').click();
      const mcp = page.getByTestId('mcp-section');
      const server = mcp.getByTestId('mcp-server');
      await expect(server).toHaveCount(1);
      await server.getByTestId('mcp-restart').click();
      await expect(server.getByTestId('mcp-status')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
      // The config shows as an editor several lines tall, not a one-line field.
      expect((await mcp.getByTestId('mcp-config').boundingBox())!.height).toBeGreaterThan(150);
      await checkScreen(page, 'mcp-servers', language, {
        ready: async (p) => {
          await p.getByTestId('mcp-section').evaluate('(el) => el.scrollIntoView({ block: "start" })');
          // The section chosen stays marked: the restart clicked in it and the list that grew since are not scrolling away.
          await expect(nav.locator('[aria-current="true"]')).toHaveAttribute('data-section', 'mcp-section');
        },
      });
      await server.getByTestId('mcp-toggle').click();
      await expect(server.getByTestId('mcp-status')).toHaveAttribute('data-status', 'disabled');
      await expect(mcp.getByTestId('mcp-config')).toHaveValue(/"disabled": true/u);
      await server.getByTestId('mcp-toggle').click();
      await expect(server.getByTestId('mcp-status')).not.toHaveAttribute('data-status', 'disabled');
      await expect(mcp.getByTestId('mcp-config')).not.toHaveValue(/"disabled"/u);
      await server.getByTestId('mcp-remove').click();
      await page.getByTestId('confirm-ok').click();
      await expect(server).toHaveCount(0);
      expect(((await folioApi(folio, 'GET', '/v1/mcp/config')) as { text: string }).text).not.toContain('everything');

      // A template imported: its layouts previewed with the sample deck in the screen's language.
      await page.getByTestId('template-file-input').setInputFiles({
        name: 'ACME Brand.potx',
        mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.template',
        buffer: await buildTemplate({ potx: true }),
      });
      const template = page.getByTestId('templates-section').getByTestId('template-item');
      await expect(template).toHaveCount(1);
      await template.getByTestId('template-preview-toggle').click();
      await expect(template.getByTestId('template-sample').first()).toBeVisible();
      // Reached as a person does, through the navigation (which then marks Templates).
      await nav.locator('[data-section="templates-section"]').click();
      await expect(nav.locator('[data-section="templates-section"]')).toHaveAttribute('aria-current', 'true');
      await checkScreen(page, 'template-preview', language, {
        ready: async (p) => {
          await p.getByTestId('templates-section').evaluate('(el) => el.scrollIntoView({ block: "start" })');
          await expect(nav.locator('[aria-current="true"]')).toHaveAttribute('data-section', 'templates-section');
        },
      });
      // Removed again: the deck screens below are of the built-in themes. Deleting is a quiet control
      // on the card, not its loudest; the confirmation says what goes and what stays.
      await expect(template.getByTestId('template-delete')).not.toHaveClass(/\bbtn-danger\b/u);
      await template.getByTestId('template-delete').click();
      await expect(page.getByTestId('confirm-dialog')).toContainText('ACME Brand.potx');
      await checkScreen(page, 'template-delete', language);
      await page.getByTestId('confirm-ok').click();
      await expect(template).toHaveCount(0);

      // A deck task: the outline the agent proposes, waiting for the person.
      await page.getByTestId('settings-back').click();
      await scriptModel([{ toolCalls: [{ name: 'propose_outline', arguments: JSON.stringify({ slides: t.outline }) }] }]);
      await createTask(page, 'ppt');
      await sendMessage(page, t.deckAsk);
      await expectRunsDone(page, 1);
      await expect(page.getByTestId('outline-panel')).toHaveAttribute('data-status', 'proposed');
      await expect(page.getByTestId('outline-row')).toHaveCount(4);
      await checkScreen(page, 'outline', language);

      // The outline approved: folded away, the run's one question (a command) in view, and the
      // composer saying what the run waits for.
      await scriptModel([{ toolCalls: [{ name: 'shell', arguments: JSON.stringify({ command: 'ls source work' }) }] }, { text: t.deckReply }]);
      await page.getByTestId('outline-approve').click();
      await expect(page.getByTestId('outline-toggle')).toHaveAttribute('aria-expanded', 'false');
      await expect(page.getByTestId('approval-card')).toBeInViewport();
      await expect(page.getByTestId('composer-waiting')).toBeVisible();
      await checkScreen(page, 'outline-approved', language, { ready: (p) => expect(p.getByTestId('approval-card')).toBeInViewport() });
      await deny(page);
      await expectRunsDone(page, 2);

      // A rendered deck in the preview, with the check of the rendered slides.
      await scriptModel(writeAndRenderDeck(t.deck, 'heat-islands', t.deckReply));
      const deckTask = await createTask(page, 'ppt');
      await setApprovalMode(page, folio, deckTask, 'auto-edit');
      await sendMessage(page, t.deckRequest);
      await expectRunsDone(page, 1);
      await page.getByTestId('panel-tab-artifacts').click();
      await page.locator('[data-testid="artifact-item"][data-path="artifacts/heat-islands.pptx"]').click();
      const preview = page.getByTestId('artifact-preview');
      await expect(preview.getByTestId('slide-thumb')).toHaveCount(5);
      await expect(preview.getByTestId('report-checked')).toBeVisible();
      await checkScreen(page, 'deck-preview', language, { ready: showPanel });

      // Slide 3 selected: the change bar asks what should change. The drawer opened again after a
      // resize is a new preview, so the slide is selected and the request typed in it again.
      const bar = preview.getByTestId('slide-change-bar');
      await checkScreen(page, 'slide-change', language, {
        ready: async (p) => {
          await showPanel(p);
          const box = preview.getByTestId('slide-select').nth(2);
          if (!(await box.isChecked())) await box.check();
          const input = bar.getByTestId('slide-change-input');
          if ((await input.inputValue()) !== t.changeAsk) await input.fill(t.changeAsk);
          await bar.scrollIntoViewIfNeeded();
        },
      });

      // The change made: two versions, slide 3 drawn before and after.
      await scriptModel(writeAndRenderDeck(deckWithChart(t.deck), 'heat-islands', t.changedReply));
      await bar.getByTestId('slide-change-send').click();
      await expectRunsDone(page, 2);
      await expect(preview).toHaveAttribute('data-path', 'artifacts/heat-islands-v2.pptx');
      const versions = preview.getByTestId('deck-versions');
      await expect(versions.getByTestId('deck-version')).toHaveCount(2);
      await checkScreen(page, 'deck-versions', language, {
        ready: async (p) => {
          await showPanel(p);
          await versions.scrollIntoViewIfNeeded();
        },
      });

      // A proposal, in the default mode: its plan is the one question, then the .docx in the document preview.
      await scriptModel([
        { toolCalls: [{ name: 'propose_plan', arguments: JSON.stringify({ content: t.plan }) }] },
        {
          toolCalls: [
            ...Object.entries(t.proposal.sections).map(([file, text]) => ({ name: 'write', arguments: JSON.stringify({ path: `work/proposal/sections/${file}`, content: text }) })),
            { name: 'write', arguments: JSON.stringify({ path: 'work/proposal/document.json', content: JSON.stringify({ title: t.proposal.title, authors: ['Li Wei'], template: 'generic', language }, null, 2) }) },
          ],
        },
        { toolCalls: [{ name: 'render_document', arguments: JSON.stringify({ path: 'work/proposal' }) }] },
        { text: t.proposalReply },
      ]);
      await createTask(page, 'proposal');
      await sendMessage(page, t.proposalAsk);
      await expect(page.getByTestId('approval-card').getByTestId('approval-plan')).toBeInViewport();
      await checkScreen(page, 'approval-plan', language);
      await page.getByTestId('approval-card').getByTestId('approval-allow-once').click();
      await expectRunsDone(page, 1);
      await page.getByTestId('panel-tab-artifacts').click();
      await page.locator(`[data-testid="artifact-item"][data-path="artifacts/${t.proposal.title}.docx"]`).click();
      await expect(page.getByTestId('artifact-preview').getByTestId('doc-cover')).toContainText(t.proposal.title);
      await checkScreen(page, 'proposal-preview', language, { ready: showPanel });

      // A project with a library file, searched: the hit names the file and its page.
      await page.getByTestId('project-new').click();
      await page.getByTestId('project-new-name').fill(t.project);
      await page.getByTestId('project-new-name').press('Enter');
      await expect(page.getByTestId('project-title')).toHaveText(t.project);
      const pdf = textPdf('heat-notes', t.library);
      await page.getByTestId('library-file-input').setInputFiles({ name: 'heat-notes.pdf', mimeType: 'application/pdf', buffer: readFileSync(pdf) });
      const libraryFile = page.getByTestId('library-file').filter({ hasText: 'heat-notes.pdf' });
      await expect(libraryFile).toHaveAttribute('data-status', 'ok', { timeout: 60_000 });
      await page.getByTestId('library-search-input').fill(t.search);
      await page.getByTestId('library-search-submit').click();
      await expect(page.getByTestId('library-hit').first()).toHaveAttribute('data-page', '2');
      await checkScreen(page, 'project-search', language, {
        ready: async (p) => {
          await p.getByTestId('library-results').scrollIntoViewIfNeeded();
        },
      });

      // The hit opened: its file from the hit's page on.
      await page.getByTestId('library-hit-open').first().click();
      const opened = page.getByTestId('library-file-dialog');
      await expect(opened.locator('[data-testid="pdf-page"][data-page="2"] canvas')).toBeVisible();
      await checkScreen(page, 'library-file', language, {
        ready: async () => {
          await expect(opened.locator('[data-testid="pdf-page"][data-page="2"] canvas')).toBeVisible();
        },
      });
    } finally {
      await folio.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
