// Flow: a proposal in two stages. The scripted model locks the spec and asks; only after the person
// confirms does it write sections and render the .docx, which is checked in the preview, in its XML
// and in LibreOffice.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { createTask, expect, test } from './support/fixtures';
import { recordedRequests, scriptModel } from './support/fake-model';
import { convertToPdf, expectRunsDone, hasCommand, pdfPageCount, sendMessage, setApprovalMode } from './support/flows';

const TITLE = '城市绿地降温机制研究';
const SPEC_LOCK = [
  '# 规格锁定（spec_lock）',
  '',
  '- 资助类别：国家自然科学基金青年科学基金',
  '- 正文字数上限：约 8000 字',
  '',
  '## 待确认事项',
  '',
  '1. 项目名称是否为“城市绿地降温机制研究”？',
  '',
].join('\n');

const sections: Record<string, string> = {
  '01_rationale.md': '# 立项依据\n\n## 研究背景\n\n城市热岛效应加剧了夏季高温风险。\n\n## 研究意义\n\n绿地降温机制尚不清楚。\n',
  '02_objectives.md': '# 研究目标\n\n阐明绿地覆盖率与地表温度之间的定量关系。\n',
  '03_plan.md': '# 研究方案与可行性分析\n\n结合遥感观测与数值模拟开展研究。\n',
};
const documentJson = { title: TITLE, subtitle: '国家自然科学基金申请书（正文）', authors: ['张三'], template: 'nsfc', language: 'zh-CN' };
const headings = ['立项依据', '研究目标', '研究方案与可行性分析'];

function writeCall(path: string, content: string): { name: string; arguments: string } {
  return { name: 'write', arguments: JSON.stringify({ path, content }) };
}

/** The text of every Heading 1 paragraph in a .docx's document.xml. */
function headingOneTexts(documentXml: string): string[] {
  const paragraphs = documentXml.match(/<w:p[ >][\s\S]*?<\/w:p>/gu) ?? [];
  return paragraphs
    .filter((p) => p.includes('<w:pStyle w:val="Heading1"/>'))
    .map((p) => Array.from(p.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/gu), (m) => m[1]).join(''));
}

test('a proposal asks for confirmation after spec_lock.md, then renders a numbered Chinese .docx with a TOC', async ({ page, folio }) => {
  await scriptModel([
    { toolCalls: [writeCall('work/proposal/spec_lock.md', SPEC_LOCK)] },
    { text: '我已把需求和提纲写入 work/proposal/spec_lock.md。请确认其中的待确认事项，确认后我再撰写正文。' },
  ]);

  await page.goto(folio.appUrl);
  const taskId = await createTask(page, 'proposal');
  await setApprovalMode(page, folio, taskId, 'auto-edit');

  await sendMessage(page, '帮我写一份国家自然科学基金申请书');
  const chat = page.getByTestId('chat-view');
  await expectRunsDone(page, 1);
  await expect(chat.getByTestId('assistant-message').last()).toContainText('请确认');

  // The question comes before any prose: the lock file is there, no section is.
  const work = page.getByTestId('file-group-work');
  await expect(work.locator('[data-testid="file-item"][data-path="work/proposal/spec_lock.md"]')).toHaveCount(1);
  await expect(work.locator('[data-testid="file-item"][data-path^="work/proposal/sections/"]')).toHaveCount(0);
  await expect(page.getByTestId('panel-tab-artifacts').locator('.count')).toHaveCount(0);
  expect((await recordedRequests()).filter((r) => r.path === '/v1/chat/completions')).toHaveLength(2);

  await scriptModel([
    {
      toolCalls: [
        ...Object.entries(sections).map(([file, text]) => writeCall(`work/proposal/sections/${file}`, text)),
        writeCall('work/proposal/document.json', JSON.stringify(documentJson, null, 2)),
      ],
    },
    { toolCalls: [{ name: 'render_document', arguments: JSON.stringify({ path: 'work/proposal' }) }] },
    { text: `申请书已生成：artifacts/${TITLE}.docx。` },
  ]);
  await sendMessage(page, '确认');
  await expectRunsDone(page, 2);
  await expect(chat.getByTestId('assistant-message').last()).toContainText('申请书已生成');
  await expect(chat.getByTestId('approval-card')).toHaveCount(0);
  const renderCard = chat.locator('[data-testid="tool-card"][data-tool-name="render_document"]');
  await expect(renderCard.getByTestId('tool-result')).toContainText(`Rendered artifacts/${TITLE}.docx`);
  await expect(renderCard.getByTestId('tool-result')).not.toHaveClass(/error/);
  // A new result brings the results tab forward; the sections are on the files tab.
  await page.getByTestId('panel-tab-files').click();
  for (const file of Object.keys(sections)) {
    await expect(work.locator(`[data-testid="file-item"][data-path="work/proposal/sections/${file}"]`)).toHaveCount(1);
  }

  await page.getByTestId('panel-tab-artifacts').click();
  const item = page.locator(`[data-testid="artifact-item"][data-path="artifacts/${TITLE}.docx"]`);
  await expect(item).toHaveCount(1);
  await item.click();
  const preview = page.getByTestId('artifact-preview').getByTestId('document-preview');
  await expect(preview.getByTestId('doc-cover')).toContainText(TITLE);
  const h1 = preview.locator('h1.doc-heading');
  await expect(h1).toHaveText(['一、立项依据', '二、研究目标', '三、研究方案与可行性分析']);
  await expect(preview.locator('h2.doc-heading')).toHaveText(['（一）研究背景', '（二）研究意义']);

  const downloadPromise = page.waitForEvent('download');
  await page.getByTestId('artifact-open').click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe(`${TITLE}.docx`);
  const bytes = readFileSync(await download.path());
  const zip = await JSZip.loadAsync(bytes);
  const documentXml = await zip.file('word/document.xml')?.async('string');
  if (documentXml === undefined) throw new Error('the .docx has no word/document.xml');
  // A real TOC field over heading levels 1-3 (switch order is the writer's choice)...
  expect(documentXml).toMatch(/<w:instrText[^>]*>\s*TOC\b[^<]*\\o &quot;1-3&quot;/u);
  // ...whose cached entries already carry the Chinese numbers, and headings whose numbers come from Word's list.
  // Each contents line is its paragraph's visible text: number and title (in separate runs), a tab, the page.
  const contentsLines = [...documentXml.matchAll(/<w:p><w:pPr><w:pStyle w:val="TOC\d"\/>[\s\S]*?<\/w:p>/gu)].map((m) =>
    [...m[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/gu)].map((t) => t[1]).join('').replace(/\s+/gu, ''),
  );
  const entries = ['一、立项依据', '（一）研究背景', '二、研究目标', '三、研究方案与可行性分析'];
  expect(contentsLines.map((line) => line.replace(/\d+$/u, ''))).toEqual(expect.arrayContaining(entries));
  expect(headingOneTexts(documentXml)).toEqual(headings);

  if (!hasCommand('soffice') || !hasCommand('pdfinfo')) {
    test.info().annotations.push({ type: 'skipped', description: 'soffice (LibreOffice) or pdfinfo (poppler-utils) is not installed: the .docx was not opened in LibreOffice' });
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'folio-e2e-proposal-'));
  try {
    const docx = join(dir, 'proposal.docx');
    writeFileSync(docx, bytes);
    const pdf = convertToPdf(docx, dir);
    expect(pdfPageCount(pdf)).toBeGreaterThanOrEqual(1);
    if (hasCommand('pdftotext')) {
      // Word numbering, as LibreOffice lays it out: the number comes from the list, not the text.
      const text = execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' }).replace(/[ \t\u3000]+/gu, '');
      expect(text).toContain('一、立项依据');
      expect(text).toContain('三、研究方案与可行性分析');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
