import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ArtifactPreview } from '../../shared/contract/methods';
import { previewSidecarPath } from '../renderers/artifact-preview';
import { SOFFICE_ENV, sofficePath } from '../renderers/soffice';
import { formatDocumentReport, renderDocumentTool } from './render-document-tool';
import { contextFor, makeTempRoot, removeTemp, writeFiles } from './testing';
import { type ToolContext } from './types';

const sampleDir = fileURLToPath(new URL('../../../samples/proposal-nsfc/', import.meta.url));
const TITLE = '面向低资源场景的文档智能理解关键技术研究';
// Pages are laid out by LibreOffice in one test below; the others run as on a machine without it.
const realSoffice = sofficePath();
const savedSoffice = process.env[SOFFICE_ENV];
function restoreSoffice(): void {
  if (savedSoffice === undefined) delete process.env[SOFFICE_ENV];
  else process.env[SOFFICE_ENV] = savedSoffice;
}

describe('render_document', () => {
  let root: string;
  let ctx: ToolContext;
  beforeEach(() => {
    root = makeTempRoot('folio-render-doc-');
    ctx = contextFor(root);
    cpSync(sampleDir, join(root, 'proposal'), { recursive: true });
    process.env[SOFFICE_ENV] = join(root, 'no-such-soffice');
  });
  afterEach(() => {
    restoreSoffice();
    removeTemp(root);
  });

  it('renders the NSFC sample into artifacts/ with a page estimate, report and preview sidecar', async () => {
    const result = await renderDocumentTool.execute({ path: 'proposal' }, ctx);
    const rel = `artifacts/${TITLE}.docx`;
    expect(result.touched).toEqual([rel]);
    expect(existsSync(join(root, rel))).toBe(true);
    expect(result.content).toMatch(new RegExp(`^Rendered ${rel} from proposal: about \\d+ pages \\(estimate: LibreOffice not installed\\); the contents' page numbers appear when Word updates fields`, 'u'));
    expect(result.content).toMatch(/Stats: 7 section file\(s\), \d+ words, \d+ CJK characters, [1-9]\d* table\(s\), 1 image\(s\)/u);

    const sidecar = JSON.parse(readFileSync(previewSidecarPath(join(root, rel)), 'utf8')) as object;
    const parsed = ArtifactPreview.parse({ ...sidecar, path: rel });
    expect(parsed.kind).toBe('document');
    if (parsed.kind !== 'document') return;
    expect(parsed.spec.template).toBe('nsfc_general');
    expect(parsed.sections.map((s) => s.file)).toEqual([
      '01_rationale.md',
      '02_objectives.md',
      '03_methods.md',
      '04_innovation.md',
      '05_plan.md',
      '06_foundation.md',
      '07_references.md',
    ]);
    expect(parsed.sections[0]?.markdown).toBe(readFileSync(join(sampleDir, 'sections/01_rationale.md'), 'utf8'));
  });

  it.skipIf(!realSoffice)('lays the pages out with LibreOffice: the true page count, the contents with page numbers in the sidecar', async () => {
    restoreSoffice();
    const result = await renderDocumentTool.execute({ path: 'proposal' }, ctx);
    expect(result.content).toMatch(/: \d+ pages \(\d+ body\), laid out by LibreOffice; the contents list every heading with its page\./u);
    const sidecar = JSON.parse(readFileSync(previewSidecarPath(join(root, result.touched?.[0] ?? '')), 'utf8')) as {
      report: { pages?: { mode: string; total: number; body: number; contents: { title: string; page: number }[] } };
    };
    expect(sidecar.report.pages?.mode).toBe('rendered');
    // Cover and one page of contents: the sample's 22 contents lines fit on one page (they ran onto two at the body's spacing).
    expect((sidecar.report.pages?.total ?? 0) - (sidecar.report.pages?.body ?? 0)).toBe(2);
    expect(sidecar.report.pages?.contents[0]).toEqual({ level: 1, title: '（一）立项依据与研究内容', page: 1 });
  }, 300_000);

  it('versions a second render and accepts the path of document.json itself', async () => {
    await renderDocumentTool.execute({ path: 'proposal' }, ctx);
    const second = await renderDocumentTool.execute({ path: 'proposal/document.json' }, ctx);
    expect(second.touched).toEqual([`artifacts/${TITLE}-v2.docx`]);
  });

  it('reports template sections the text lacks and missing images', async () => {
    writeFiles(root, {
      'short/document.json': JSON.stringify({ title: 'Short', template: 'nsfc', language: 'zh-CN' }),
      'short/sections/01.md': '# 立项依据\n\n正文。\n\n![图](figures/none.png)\n',
    });
    const result = await renderDocumentTool.execute({ path: 'short' }, ctx);
    expect(result.touched).toEqual(['artifacts/Short.docx']);
    expect(result.content).toMatch(/Issues \(\d+\):/u);
    expect(result.content).toContain('missing_section: the');
    expect(result.content).toMatch(/- \[01\.md ¶3 \(line 5\) “图”\] missing_image: /u);
  });

  it('writes the submission copy beside the review copy, and says where each issue is', async () => {
    writeFiles(root, {
      'sub/document.json': JSON.stringify({ title: '申请书', template: 'nsfc_youth', language: 'zh-CN', submission: true }),
      'sub/sections/01.md': '# 立项依据\n\n正文。\n\n不足之处[^x]。\n',
    });
    const result = await renderDocumentTool.execute({ path: 'sub' }, ctx);
    expect(result.touched).toEqual(['artifacts/申请书.docx', 'artifacts/申请书（提交版）.docx']);
    for (const rel of result.touched ?? []) expect(existsSync(join(root, rel))).toBe(true);
    expect(result.content).toContain('Submission copy (body only, no cover or contents): artifacts/申请书（提交版）.docx.');
    expect(result.content).toContain('- [01.md ¶3 (line 5) “不足之处[^x]。”] undefined_footnote: ');
  });

  it('refuses folders outside the task, and names missing or invalid pieces relative to the task', async () => {
    await expect(renderDocumentTool.execute({ path: '../proposal' }, ctx)).rejects.toThrow(/escapes the task folder/u);
    await expect(renderDocumentTool.execute({ path: 'nowhere' }, ctx)).rejects.toThrow('Document folder not found: nowhere');
    writeFiles(root, { 'empty/notes.md': 'x', 'bad/document.json': '{"title": "x", "template": "nsfc"}', 'bad/sections/a.md': 'x' });
    await expect(renderDocumentTool.execute({ path: 'empty' }, ctx)).rejects.toThrow('document.json is missing in empty');
    await expect(renderDocumentTool.execute({ path: 'bad' }, ctx)).rejects.toThrow(/document\.json: language/u);
    await expect(renderDocumentTool.execute({ path: 'empty/notes.md' }, ctx)).rejects.toThrow(/is a file; give the document folder/u);
    expect(existsSync(join(root, 'artifacts'))).toBe(false);
  });
});

describe('formatDocumentReport', () => {
  it('names the section file and heading an issue came from', () => {
    const stats = { sections: 1, words: 10, cjk_chars: 0, tables: 0, images: 0, footnotes: 0 };
    const text = formatDocumentReport({ issues: [{ kind: 'missing_glyph', section: '04.md', heading: '特色与创新之处', message: 'no font' }], stats });
    expect(text).toContain('- [04.md › 特色与创新之处] missing_glyph: no font');
  });

  it('says "No issues." when there are none', () => {
    const text = formatDocumentReport({ issues: [], stats: { sections: 1, words: 10, cjk_chars: 0, tables: 0, images: 0, footnotes: 0 } });
    expect(text).toBe('Stats: 1 section file(s), 10 words, 0 CJK characters, 0 table(s), 0 image(s), 0 footnote(s).\nNo issues.');
  });
});
