import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readArtifactPreview } from '../renderers/artifact-preview';
import { makeDocx, para } from '../renderers/revise/testing';
import { reviseDocumentTool } from './revise-document-tool';
import { contextFor, makeTempRoot, removeTemp, toolError, writeFiles } from './testing';
import { type ToolContext } from './types';

describe('revise_document', () => {
  let root: string;
  let ctx: ToolContext;
  beforeEach(async () => {
    root = makeTempRoot('folio-revise-');
    ctx = contextFor(root);
    writeFiles(root, {
      'source/申请书草稿.docx': await makeDocx({ body: para('本项目拟研究文档版面分析。') + para('重复。') + para('重复。') }),
      'source/draft.docx': await makeDocx({ body: para('A rough draft.') }),
    });
  });
  afterEach(() => removeTemp(root));

  it('writes a tracked-changes copy into artifacts/ next to an untouched original, and reports each edit', async () => {
    const original = readFileSync(join(root, 'source/申请书草稿.docx'));
    const result = await reviseDocumentTool.execute(
      {
        path: 'source/申请书草稿.docx',
        edits: [
          { find: '拟研究', replace: '研究', reason: '删去“拟”' },
          { find: '重复。', replace: '不再重复。', reason: 'x' },
          { find: '没有的话', replace: 'y', reason: 'z' },
        ],
      },
      ctx,
    );
    expect(result.touched).toEqual(['artifacts/申请书草稿（修订）.docx']);
    expect(result.content).toMatch(/^Wrote artifacts\/申请书草稿（修订）\.docx: 1 of 3 edit\(s\)/u);
    expect(result.content).toMatch(/edit 1: applied \(body ¶1\)/u);
    expect(result.content).toMatch(/edit 2: ambiguous — Found 2 times \(body ¶2 .*body ¶3/u);
    expect(result.content).toMatch(/edit 3: not_found/u);
    expect(readFileSync(join(root, 'source/申请书草稿.docx')).equals(original)).toBe(true);
    const doc = await (await JSZip.loadAsync(readFileSync(join(root, 'artifacts/申请书草稿（修订）.docx')))).file('word/document.xml')?.async('string');
    expect(doc).toContain('w:author="Folio"');
    // The preview shows the copy with its changes marked.
    const preview = await readArtifactPreview(root, 'artifacts/申请书草稿（修订）.docx');
    expect(preview.kind).toBe('revision');
    if (preview.kind === 'revision') {
      expect(preview.source).toBe('source/申请书草稿.docx');
      expect(preview.paragraphs[0]?.segments).toContainEqual({ text: '拟', change: 'del', author: 'Folio' });
      expect(preview.paragraphs[0]?.comments[0]?.text).toBe('删去“拟”');
    }

    // A second revision never overwrites the first.
    const again = await reviseDocumentTool.execute({ path: 'source/申请书草稿.docx', edits: [{ find: '拟研究', replace: '研究', reason: 'r' }] }, ctx);
    expect(again.touched).toEqual(['artifacts/申请书草稿（修订）-v2.docx']);
  });

  it('names an English copy "-revised" or as asked, and writes nothing when no edit applies', async () => {
    const named = await reviseDocumentTool.execute({ path: 'source/draft.docx', edits: [{ find: 'rough', replace: 'first', reason: 'tone' }] }, ctx);
    expect(named.touched).toEqual(['artifacts/draft-revised.docx']);
    const custom = await reviseDocumentTool.execute({ path: 'source/draft.docx', edits: [{ find: 'rough', replace: 'first', reason: 'tone' }], output: 'v2.docx' }, ctx);
    expect(custom.touched).toEqual(['artifacts/v2.docx']);
    const none = await reviseDocumentTool.execute({ path: 'source/draft.docx', edits: [{ find: 'absent', replace: 'x', reason: 'r' }] }, ctx);
    expect(none.isError).toBe(true);
    expect(none.touched).toBeUndefined();
    expect(none.content).toMatch(/no file was written/u);
    expect(existsSync(join(root, 'artifacts/draft-revised-v2.docx'))).toBe(false);
  });

  it('refuses paths outside the task, other file types, folders in output, and files that are not Word packages', async () => {
    expect((await toolError(reviseDocumentTool.execute({ path: '../x.docx', edits: [{ find: 'a', replace: 'b', reason: 'c' }] }, ctx))).message).toMatch(/outside|escape|\.\./iu);
    expect((await toolError(reviseDocumentTool.execute({ path: 'source/a.txt', edits: [{ find: 'a', replace: 'b', reason: 'c' }] }, ctx))).message).toMatch(/not a \.docx/u);
    expect((await toolError(reviseDocumentTool.execute({ path: 'source/draft.docx', edits: [{ find: 'rough', replace: 'b', reason: 'c' }], output: '../x.docx' }, ctx))).message).toMatch(/without folders/u);
    writeFiles(root, { 'source/fake.docx': 'plain text' });
    expect((await toolError(reviseDocumentTool.execute({ path: 'source/fake.docx', edits: [{ find: 'a', replace: 'b', reason: 'c' }] }, ctx))).message).toMatch(/not a zip/u);
  });

  it('tells the approval card what allowing does', async () => {
    const risk = await reviseDocumentTool.assess?.({ path: 'source/draft.docx', edits: [{ find: 'rough', replace: 'first', reason: 'tone' }] }, ctx);
    expect(risk?.detail).toMatch(/^Write a copy of source\/draft\.docx into artifacts\/ with 1 tracked change\(s\); the original is not changed\.\n1\. “rough” → “first” \(tone\)/u);
  });
});
