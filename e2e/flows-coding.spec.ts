// Flow: fix a bug in a real project folder. In "ask" mode the edit and the test command each wait
// for a person, showing the diff and the command; the tests then really run and pass.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTask, expect, test } from './support/fixtures';
import { scriptModel } from './support/fake-model';
import { expectRunsDone, sendMessage, toolMessagesOfLastRequest } from './support/flows';
import { expandedToolResult } from './support/tool-cards';

const BUGGY = 'function add(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add };\n';

/** A tiny npm project whose one test fails until add() is fixed. */
function sampleRepository(): string {
  const root = mkdtempSync(join(tmpdir(), 'folio-e2e-repo-'));
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'test'));
  writeFileSync(join(root, 'package.json'), `${JSON.stringify({ name: 'math-sample', version: '1.0.0', private: true, scripts: { test: 'node --test' } }, null, 2)}\n`);
  writeFileSync(join(root, 'src', 'math.js'), BUGGY);
  writeFileSync(
    join(root, 'test', 'math.test.js'),
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../src/math');\n\n" +
      "test('add sums two numbers', () => {\n  assert.strictEqual(add(2, 3), 5);\n});\n",
  );
  return root;
}

test('a coding task fixes a bug in the chosen folder: the diff and the command are approved, and the tests pass', async ({ page, folio }) => {
  const repo = sampleRepository();
  try {
    await scriptModel([
      { toolCalls: [{ name: 'read', arguments: JSON.stringify({ path: 'src/math.js' }) }] },
      { toolCalls: [{ name: 'edit', arguments: JSON.stringify({ path: 'src/math.js', old_str: 'return a - b', new_str: 'return a + b' }) }] },
      { toolCalls: [{ name: 'shell', arguments: JSON.stringify({ command: 'npm test' }) }] },
      { text: 'Fixed add() in src/math.js; npm test passes.' },
    ]);

    await page.goto(folio.appUrl);
    await createTask(page, 'coding');
    await expect(page.getByTestId('approval-mode-picker')).toHaveValue('ask');
    const header = page.getByTestId('workspace-folder');
    await header.getByTestId('workspace-choose').click();
    const dialog = page.getByTestId('workspace-dialog');
    await dialog.getByTestId('workspace-input').fill(repo);
    await dialog.getByTestId('workspace-next').click();
    await dialog.getByTestId('workspace-confirm').click();
    await expect(dialog).toHaveCount(0);
    await expect(header.getByTestId('workspace-path')).toHaveText(repo);

    await sendMessage(page, 'add(2, 3) returns -1; fix it and run the tests');
    const chat = page.getByTestId('chat-view');

    // The edit waits, showing exactly what will change.
    const editApproval = chat.getByTestId('approval-card');
    await expect(editApproval).toHaveCount(1);
    await expect(editApproval).toContainText('Edit a file');
    await expect(editApproval).toContainText('src/math.js');
    // The edit reads as numbered lines: the removed line, then the added one.
    await expect(editApproval.locator('.diff-remove .diff-text')).toContainText('return a - b;');
    await expect(editApproval.locator('.diff-add .diff-text')).toContainText('return a + b;');
    // The read before it ran without asking, and nothing has changed yet.
    await expect(await expandedToolResult(chat.locator('[data-testid="tool-card"][data-tool-name="read"]'))).toContainText('return a - b');
    expect(readFileSync(join(repo, 'src', 'math.js'), 'utf8')).toBe(BUGGY);
    await editApproval.getByTestId('approval-allow-once').click();

    // Then the command waits, shown in full.
    const shellApproval = chat.locator('[data-testid="approval-card"]').filter({ hasText: 'npm test' });
    await expect(shellApproval).toHaveCount(1);
    await expect(shellApproval.locator('.approval-command')).toHaveText('npm test');
    await expect(chat.getByTestId('approval-card')).toHaveCount(1);
    expect(readFileSync(join(repo, 'src', 'math.js'), 'utf8')).toBe(BUGGY.replace('return a - b', 'return a + b'));
    await shellApproval.getByTestId('approval-allow-once').click();

    await expectRunsDone(page, 1);
    await expect(chat.getByTestId('approval-card')).toHaveCount(0);
    await expect(chat.getByTestId('assistant-message').last()).toContainText('npm test passes');
    const shellCard = chat.locator('[data-testid="tool-card"][data-tool-name="shell"]');
    await expect(await expandedToolResult(shellCard)).toContainText(/pass 1\b/u);

    // What the model was told the command printed: the test passed, none failed, exit code 0.
    const toolMessages = await toolMessagesOfLastRequest();
    expect(toolMessages).toHaveLength(3);
    expect(toolMessages[1]).toContain('Edited src/math.js');
    const shellOutput = toolMessages[2] ?? '';
    expect(shellOutput).toMatch(/pass 1\b/u);
    expect(shellOutput).toMatch(/fail 0\b/u);
    expect(shellOutput).toContain('[exit code 0');
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
});
