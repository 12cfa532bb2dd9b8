// Export PDF of a rendered Chinese .docx, with the UI in Chinese, at both window sizes: the button
// says what it does and that it is working, the PDF is listed and selected, and its pages are drawn
// wide enough to read in the panel (one to a row), not as thumbnails two abreast.
import { createTask, expect, test } from './support/fixtures';
import { scriptModel } from './support/fake-model';
import { folioApi } from './support/folio-server';
import { expectRunsDone, hasCommand, sendMessage, setApprovalMode } from './support/flows';

const TITLE = '城市绿地降温机制研究';
const sections: Record<string, string> = {
  '01_立项依据.md': '# 立项依据\n\n## 研究背景\n\n城市热岛效应加剧了夏季高温风险。\n\n表：站点温差 {#tbl:t}\n\n| 站点 | 温差 |\n| - | - |\n| 城区 | 2.5 |\n| 郊区 | 1.1 |\n',
  '02_研究目标.md': '# 研究目标\n\n阐明绿地覆盖率与地表温度之间的定量关系。\n',
};

for (const size of [
  { width: 1280, height: 800 },
  { width: 900, height: 700 },
]) {
  test(`export PDF in Chinese, ${size.width}×${size.height}: the PDF is selected and its pages are readable`, async ({ page, folio }) => {
    test.skip(!hasCommand('soffice'), 'soffice (LibreOffice) is not installed: Export PDF is disabled');
    test.setTimeout(240_000);
    await folioApi(folio, 'PATCH', '/v1/settings', { language: 'zh-CN' });
    try {
      await page.setViewportSize(size);
      await scriptModel([
        {
          toolCalls: [
            ...Object.entries(sections).map(([file, text]) => ({ name: 'write', arguments: JSON.stringify({ path: `work/proposal/sections/${file}`, content: text }) })),
            { name: 'write', arguments: JSON.stringify({ path: 'work/proposal/document.json', content: JSON.stringify({ title: TITLE, template: 'nsfc', language: 'zh-CN' }) }) },
          ],
        },
        { toolCalls: [{ name: 'render_document', arguments: JSON.stringify({ path: 'work/proposal' }) }] },
        { text: '申请书已生成。' },
      ]);
      await page.goto(folio.appUrl);
      const taskId = await createTask(page, 'proposal');
      await setApprovalMode(page, folio, taskId, 'auto-edit');
      await sendMessage(page, '写申请书');
      await expectRunsDone(page, 1);

      const toggle = page.getByTestId('panel-toggle');
      if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
      await page.getByTestId('panel-tab-artifacts').click();
      await page.locator(`[data-testid="artifact-item"][data-path="artifacts/${TITLE}.docx"]`).click();
      const exportButton = page.getByTestId('artifact-export-pdf');
      await expect(exportButton).toHaveText('导出PDF');
      await exportButton.click();

      const pdfItem = page.locator(`[data-testid="artifact-item"][data-path="artifacts/${TITLE}.pdf"]`);
      await expect(pdfItem).toHaveCount(1, { timeout: 120_000 });
      await expect(pdfItem).toHaveAttribute('aria-selected', 'true');
      const preview = page.getByTestId('artifact-preview');
      await expect(preview.getByTestId('pdf-preview')).toContainText('3页');
      const pages = preview.getByTestId('pdf-page');
      await expect(pages).toHaveCount(3, { timeout: 30_000 });
      await expect(pages.first().locator('canvas')).toBeVisible();
      await expect(page.getByTestId('pdf-error')).toHaveCount(0);
      await expect(page.getByTestId('artifact-error')).toHaveCount(0);
      // Each page as wide as the panel allows, one under the other: the cover above the contents.
      const first = (await pages.nth(0).boundingBox())!;
      const second = (await pages.nth(1).boundingBox())!;
      expect(first.width).toBeGreaterThanOrEqual(360);
      expect(second.y).toBeGreaterThan(first.y + first.height - 1);
      await page.screenshot({ path: `test-artifacts/e2e-export-pdf-zh-CN-${size.width}.png` });
    } finally {
      await folioApi(folio, 'PATCH', '/v1/settings', { language: 'system' });
    }
  });
}
