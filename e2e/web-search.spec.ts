// Web search (issue 12): a person sets up a search backend in Settings (here the local fake one in the
// Brave API's shape), tests it, and the agent's web_search result reaches the chat and the answer,
// with the model receiving it inside the untrusted-content marker.
import { FAKE_SEARCH_KEY, type FakeSearch, startFakeSearch } from '../testing/fake-search/server';
import { recordedRequests, scriptModel } from './support/fake-model';
import { createTask, expect, test } from './support/fixtures';
import { folioApi } from './support/folio-server';
import { expandedToolResult } from './support/tool-cards';

let search: FakeSearch;
test.beforeAll(async () => {
  search = await startFakeSearch();
});
test.afterAll(async () => {
  await search.close();
});

test('a search backend set up in Settings answers the agent’s web_search, and the answer cites the result', async ({ page, folio }) => {
  await page.goto(folio.appUrl);
  await page.getByTestId('nav-settings').click();
  const section = page.getByTestId('search-section');
  await expect(section).toBeVisible();
  await expect(section.getByTestId('search-backend')).toHaveValue('none');

  await section.getByTestId('search-backend').selectOption('brave');
  await expect(section.getByTestId('search-key-env')).toHaveAttribute('placeholder', 'BRAVE_API_KEY');
  await section.getByTestId('search-key').fill(FAKE_SEARCH_KEY);
  // A URL that fails its test is not saved.
  await section.getByTestId('search-url').fill('http://127.0.0.1:9/nothing-listens');
  await section.getByTestId('search-test').click();
  await expect(section.getByTestId('search-test-error')).toBeVisible();
  expect(((await folioApi(folio, 'GET', '/v1/settings')) as { search?: unknown }).search).toBeUndefined();
  await expect(section.getByTestId('search-key')).toHaveValue(FAKE_SEARCH_KEY);

  await section.getByTestId('search-url').fill(search.urls.brave);
  await section.getByTestId('search-test').click();
  const report = section.getByTestId('search-test-result');
  await expect(report).toContainText('It works: 3 results');
  await expect(report).toContainText(`${search.origin}/pages/1`);
  // The key field is cleared once stored; Settings knows only that a key exists.
  await expect(section.getByTestId('search-key')).toHaveValue('');
  await expect(section.getByTestId('search-key')).toHaveAttribute('placeholder', /A key is stored for BRAVE_API_KEY/u);
  const settings = (await folioApi(folio, 'GET', '/v1/settings')) as { search?: unknown };
  expect(settings.search).toEqual({ backend: 'brave', url: search.urls.brave, api_key_env: 'BRAVE_API_KEY', has_key: true });
  expect(JSON.stringify(settings)).not.toContain(FAKE_SEARCH_KEY);
  expect(search.requests.at(-1)).toMatchObject({ backend: 'brave', keyOk: true });

  const page1 = `${search.origin}/pages/1`;
  await scriptModel([
    { toolCalls: [{ name: 'web_search', arguments: JSON.stringify({ query: 'urban heat island', count: 3 }) }] },
    { text: `Cities are warmer than the countryside around them [1].\n\n[1]: ${page1}` },
  ]);
  await page.getByTestId('settings-back').click();
  await createTask(page, 'general');
  const input = page.getByTestId('composer-input');
  await input.fill('Why are cities warmer? Search the web.');
  await input.press('Enter');

  const chat = page.getByTestId('chat-view');
  // A search reaches the network: in "ask" mode it waits for the person, showing the query.
  const approval = chat.getByTestId('approval-card');
  await expect(approval).toContainText('Search the web');
  await expect(approval).toContainText('urban heat island');
  await approval.getByTestId('approval-allow-once').click();

  const card = chat.locator('[data-testid="tool-card"][data-tool-name="web_search"]');
  const result = await expandedToolResult(card);
  await expect(result).toContainText('1. Result 1 about urban heat island');
  await expect(result).toContainText(page1);
  await expect(result).not.toHaveClass(/error/);
  await expect(chat.getByTestId('assistant-message').last()).toContainText('Cities are warmer than the countryside');
  await expect(chat.getByTestId('run-footer').last()).toHaveAttribute('data-run-status', 'done');

  // What the model received: the results inside the marker, with their URLs.
  const requests = (await recordedRequests()).filter((r) => r.path === '/v1/chat/completions');
  const sent = (requests.at(-1)?.body as { messages: { role: string; content: string }[] }).messages;
  const toolMessage = sent.find((m) => m.role === 'tool');
  expect(toolMessage?.content).toContain('<untrusted_content source="web_search: urban heat island">');
  expect(toolMessage?.content).toContain(page1);
  expect(sent[0]?.content).toContain('never as instructions');
  expect(search.requests.at(-1)).toMatchObject({ backend: 'brave', query: 'urban heat island', count: 3, keyOk: true });

  // Leave the shared data folder as other specs expect it.
  await folioApi(folio, 'PATCH', '/v1/settings', { search: null });
});
