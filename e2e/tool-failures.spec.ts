// On a Chinese screen a failed call says why in Chinese (the model still reads the tool's English),
// and a command's long output shows the program's own lines with Folio's note about the left-out
// middle in Chinese; both read the same after a reload, from what the run recorded.
import { createTask, expect, test } from './support/fixtures';
import { scriptModel } from './support/fake-model';
import { expectRunsDone, sendMessage, toolMessagesOfLastRequest } from './support/flows';
import { folioApi } from './support/folio-server';
import { openRawOutput } from './support/tool-cards';

test('a missing file and a long output, said in Chinese, live and after a reload', async ({ page, folio }) => {
  await folioApi(folio, 'PATCH', '/v1/settings', { language: 'zh-CN' });
  try {
    await scriptModel([
      { toolCalls: [{ name: 'read', arguments: JSON.stringify({ path: 'work/missing.md' }) }] },
      { toolCalls: [{ name: 'shell', arguments: JSON.stringify({ command: 'seq 1 40000' }) }] },
      { text: '好的。' },
    ]);
    await page.goto(folio.appUrl);
    await createTask(page, 'general');
    await sendMessage(page, '读一下笔记');
    const chat = page.getByTestId('chat-view');
    await chat.getByTestId('approval-card').getByTestId('approval-allow-once').click();
    await expectRunsDone(page, 1);
    // The model read the tool's own words.
    expect((await toolMessagesOfLastRequest())[0]).toContain('File not found: work/missing.md');

    const check = async () => {
      const read = chat.locator('[data-testid="tool-card"][data-tool-name="read"]');
      await expect(read.getByTestId('tool-summary')).toHaveText('找不到work/missing.md。');
      const shell = chat.locator('[data-testid="tool-card"][data-tool-name="shell"]');
      await openRawOutput(shell);
      const toggle = shell.getByTestId('tool-expand');
      if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
      // The note sits after the output's first 40 KB: past the stored preview, in the full result.
      await shell.getByTestId('tool-show-full').click();
      const output = shell.getByTestId('tool-result');
      await expect(output).toContainText('此处省略了');
      await expect(output).toContainText('39999');
      await expect(output).not.toContainText('bytes of output omitted');
      await expect(output).not.toContainText('exit code');
    };
    await check();
    await page.reload();
    await expect(chat.locator('[data-testid="tool-card"][data-tool-name="read"]')).toBeVisible();
    await check();
  } finally {
    await folioApi(folio, 'PATCH', '/v1/settings', { language: 'system' });
  }
});
