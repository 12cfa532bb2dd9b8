// The proposal flow in the default mode ("Ask every time"), from task to rendered .docx: the plan is
// the one question. Its card shows the plan and says what approving it allows; at every wait that
// card is on screen and the composer says so. Approving it lets the sections under work/ and the
// render run without asking, which the task's "Allowed" menu then lists and can take back.
import { approvalsShown, countApprovalsShown, expectWaitingInView } from './support/approvals';
import { createTask, expect, test } from './support/fixtures';
import { scriptModel } from './support/fake-model';
import { expectRunsDone, sendMessage } from './support/flows';

const TITLE = '城市绿地降温机制研究';
const PLAN = ['# 规格锁定', '', '- 资助类别：国家自然科学基金青年科学基金', '- 正文字数上限：约 8000 字', '', '## 待确认事项', '', '1. 项目名称是否为“城市绿地降温机制研究”？'].join('\n');
const sections: Record<string, string> = {
  '01_立项依据.md': '# 立项依据\n\n## 研究背景\n\n城市热岛效应加剧了夏季高温风险。\n',
  '02_研究目标.md': '# 研究目标\n\n阐明绿地覆盖率与地表温度之间的定量关系。\n',
  '03_研究方案.md': '# 研究方案与可行性分析\n\n结合遥感观测与数值模拟开展研究。\n',
};
const documentJson = { title: TITLE, template: 'nsfc', language: 'zh-CN' };

function writeCall(path: string, content: string): { name: string; arguments: string } {
  return { name: 'write', arguments: JSON.stringify({ path, content }) };
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 900, height: 700 },
]) {
  test(`ask every time, ${size.width}×${size.height}: one approval of the plan, then sections and the render without asking`, async ({ page, folio }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(size);
    await countApprovalsShown(page);
    await scriptModel([
      { toolCalls: [{ name: 'propose_plan', arguments: JSON.stringify({ content: PLAN }) }] },
      {
        toolCalls: [
          ...Object.entries(sections).map(([file, text]) => writeCall(`work/proposal/sections/${file}`, text)),
          writeCall('work/proposal/document.json', JSON.stringify(documentJson)),
        ],
      },
      { toolCalls: [{ name: 'render_document', arguments: JSON.stringify({ path: 'work/proposal' }) }] },
      { text: `申请书已生成：artifacts/${TITLE}.docx。` },
    ]);
    await page.goto(folio.appUrl);
    await createTask(page, 'proposal');
    await expect(page.getByTestId('approval-mode-picker')).toHaveValue('ask');
    await sendMessage(page, '帮我写一份国家自然科学基金青年项目申请书');

    // The one question: the plan, shown as a document, with what approving it allows.
    await expectWaitingInView(page);
    const chat = page.getByTestId('chat-view');
    const card = chat.getByTestId('approval-card');
    await expect(card.getByTestId('approval-plan').locator('h1')).toHaveText('规格锁定');
    await expect(card.getByTestId('approval-plan-grants')).toContainText('without asking each time');
    await expect(card.getByTestId('approval-allow-once')).toHaveText('Approve the plan');
    await expect(card.getByTestId('approval-allow-task')).toHaveCount(0);
    await page.screenshot({ path: `test-artifacts/e2e-proposal-flow-ask-${size.width}.png` });
    await card.getByTestId('approval-allow-once').click();

    // Four writes under work/ and the render follow without another question.
    await expectRunsDone(page, 1);
    await expect(chat.getByTestId('approval-card')).toHaveCount(0);
    expect(await approvalsShown(page)).toBe(1);
    await expect(chat.locator('[data-testid="tool-card"][data-tool-name="write"]')).toHaveCount(4);
    await expect(chat.locator('[data-testid="tool-card"][data-tool-name="render_document"]').getByTestId('tool-result')).toContainText(`Rendered artifacts/${TITLE}.docx`);
    await expect(chat.getByTestId('assistant-message').last()).toContainText('申请书已生成');
    await expect(page.getByTestId('composer-waiting')).toHaveCount(0);

    // The plan was saved where the skill reads it.
    const toggle = page.getByTestId('panel-toggle');
    if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
    await page.getByTestId('panel-tab-files').click();
    await expect(page.locator('[data-testid="file-item"][data-path="work/spec_lock.md"]')).toHaveCount(1);
    if (size.width < 1100) await toggle.click();

    // What the approval allowed is listed for the task and can be taken back.
    await page.getByTestId('task-grants').click();
    const grants = page.getByTestId('task-grant');
    await expect(grants).toHaveCount(3);
    await expect(page.locator('[data-testid="task-grant"][data-tool="write"]')).toContainText('files under work/');
    await expect(page.locator('[data-testid="task-grant"][data-tool="edit"]')).toContainText('files under work/');
    await page.locator('[data-testid="task-grant"][data-tool="render_document"]').getByTestId('task-grant-revoke').click();
    await expect(grants).toHaveCount(2);
    await page.keyboard.press('Escape');

    // Taken back, the render asks again.
    await scriptModel([{ toolCalls: [{ name: 'render_document', arguments: JSON.stringify({ path: 'work/proposal' }) }] }, { text: '已重新生成。' }]);
    await sendMessage(page, '请重新生成');
    await expectWaitingInView(page);
    await expect(chat.getByTestId('approval-card').getByTestId('approval-render')).toBeVisible();
    await chat.getByTestId('approval-card').getByTestId('approval-allow-once').click();
    await expectRunsDone(page, 2);
    expect(await approvalsShown(page)).toBe(2);
  });
}
