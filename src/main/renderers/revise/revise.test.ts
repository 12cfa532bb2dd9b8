import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinNameHyphens, WORD_JOINER } from '../document/name-hyphens';
import { type DocxEdit, reviseDocx } from './index';
import { scanParagraphs } from './part-scan';
import { makeDocx, para, readBack } from './testing';

const ALICE_INS = '<w:ins w:id="901" w:author="Alice" w:date="2024-01-02T03:04:05Z"><w:r><w:t>审稿人新增</w:t></w:r></w:ins>';
const ALICE_DEL = '<w:del w:id="902" w:author="Alice" w:date="2024-01-02T03:04:05Z"><w:r><w:delText>被删旧句</w:delText></w:r></w:del>';

const BODY = [
  // Word's own splits: a spelling mark, a bookmark and an rsid run in the middle of words.
  '<w:p><w:r><w:t>本项目</w:t></w:r><w:proofErr w:type="spellStart"/><w:bookmarkStart w:id="0" w:name="intro"/><w:r w:rsidR="00AB12"><w:rPr><w:b/></w:rPr><w:t>拟研究</w:t></w:r><w:bookmarkEnd w:id="0"/><w:r><w:t>文档版面分析方法。</w:t></w:r></w:p>',
  para('The qu', 'ick brown fox jumps over the lazy dog.'),
  `<w:p><w:commentRangeStart w:id="1"/><w:r><w:t>已有批注的句子，</w:t></w:r><w:commentRangeEnd w:id="1"/><w:r><w:commentReference w:id="1"/></w:r>${ALICE_INS}${ALICE_DEL}<w:r><w:t>其后文字。</w:t></w:r></w:p>`,
  para('重复短语出现在这里。'),
  para('这里也有重复短语。'),
  '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Recall@10</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>数据集一</w:t></w:r></w:p></w:tc></w:tr></w:tbl>',
  '<w:p><w:r><w:t xml:space="preserve">第 </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>3</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:t xml:space="preserve"> 页正文</w:t></w:r></w:p>',
  '<w:p><w:r><w:t>见脚注</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r><w:r><w:t>说明。</w:t></w:r></w:p>',
  para('第一段的结尾。'),
  para('第二段的开头。'),
  para('An untouched closing paragraph.'),
];

const PARTS = {
  body: BODY.join(''),
  footnotes: '<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> 脚注原文在此。</w:t></w:r></w:p></w:footnote>',
  header: para('页眉：课题申请书'),
  footer: para('页脚文字'),
  comments: '<w:comment w:id="1" w:author="Alice" w:date="2024-01-02T03:04:05Z" w:initials="A"><w:p><w:r><w:t>Alice 的意见</w:t></w:r></w:p></w:comment>',
};

const DATE = new Date('2026-01-15T08:30:00Z');

async function part(bytes: Uint8Array, name: string): Promise<string> {
  return (await (await JSZip.loadAsync(bytes)).file(name)?.async('string')) ?? '';
}

const EDITS: DocxEdit[] = [
  { find: '本项目拟研究文档版面', replace: '本项目研究文档版面', reason: '删去冗余的“拟”' },
  { find: 'quick brown fox', replace: 'quick red fox', reason: 'colour' },
  { find: 'Recall@10', replace: 'Recall@20', reason: '与正文一致' },
  { find: '脚注原文', replace: '脚注修改后', reason: '脚注措辞' },
  { find: '课题申请书', replace: '项目申请书', reason: '页眉' },
  { find: '页脚文字', replace: '页脚新文字', reason: '页脚' },
  { find: '结尾。\n第二段的', replace: '结尾，', reason: '两段合并' },
];

describe('reviseDocx', () => {
  it('writes each edit as a tracked change by Folio with its reason as a comment, in body, table, footnote, header and footer', async () => {
    const original = await makeDocx(PARTS);
    const result = await reviseDocx(original, EDITS, { date: DATE });
    expect(result.outcomes.map((o) => o.status)).toEqual(EDITS.map(() => 'applied'));
    expect(result.chinese).toBe(true);
    const bytes = result.bytes as Uint8Array;
    const doc = await part(bytes, 'word/document.xml');

    const accepted = readBack(doc, 'accept');
    expect(accepted[0]).toBe('本项目研究文档版面分析方法。');
    expect(accepted[1]).toBe('The quick red fox jumps over the lazy dog.');
    expect(accepted).toContain('Recall@20');
    expect(accepted).toContain('第一段的结尾，开头。');
    // Rejecting everything gives back the original text (another reviewer's changes are rejected alike).
    expect(readBack(doc, 'reject')).toEqual(readBack(await part(original, 'word/document.xml'), 'reject'));

    // Only what differs is marked: one character in Chinese, one word in English.
    expect(doc).toMatch(/<w:del w:id="\d+" w:author="Folio" w:date="2026-01-15T08:30:00Z"><w:r w:rsidR="00AB12"><w:rPr><w:b\/><\/w:rPr><w:delText xml:space="preserve">拟<\/w:delText>/u);
    expect(doc).toMatch(/<w:delText xml:space="preserve">brown<\/w:delText>/u);
    expect(doc).toMatch(/<w:ins w:id="\d+" w:author="Folio" w:date="2026-01-15T08:30:00Z"><w:r><w:t xml:space="preserve">red<\/w:t>/u);
    // The joined paragraph's mark is a tracked deletion.
    expect(doc).toMatch(/<w:pPr><w:rPr><w:del w:id="\d+" w:author="Folio"/u);

    expect(readBack(await part(bytes, 'word/footnotes.xml'), 'accept').join('|')).toContain('脚注修改后在此。');
    expect(readBack(await part(bytes, 'word/header1.xml'), 'accept')).toEqual(['页眉：项目申请书']);
    expect(readBack(await part(bytes, 'word/footer1.xml'), 'accept')).toEqual(['页脚新文字']);

    const comments = await part(bytes, 'word/comments.xml');
    expect(comments).toContain('Alice 的意见');
    for (const reason of ['删去冗余的“拟”', 'colour', '与正文一致', '脚注措辞', '两段合并']) expect(comments).toContain(reason);
    // Word keeps no comments in headers and footers: those reasons are reported, not attached.
    expect(comments).not.toContain('>页眉<');
    expect(result.outcomes[4]?.message).toMatch(/no comments/u);
    // Every comment Folio wrote is anchored in the body or a note.
    const ids = [...comments.matchAll(/<w:comment w:id="(\d+)" w:author="Folio"/gu)].map((m) => m[1]);
    expect(ids).toHaveLength(5);
    const anchored = doc + (await part(bytes, 'word/footnotes.xml'));
    for (const id of ids) {
      expect(anchored).toContain(`<w:commentRangeStart w:id="${id}"/>`);
      expect(anchored).toContain(`<w:commentReference w:id="${id}"/>`);
    }
  });

  it('keeps every untouched paragraph, every byte between paragraphs and every other part as it was', async () => {
    const original = await makeDocx(PARTS);
    const bytes = (await reviseDocx(original, EDITS.slice(0, 3), { date: DATE })).bytes as Uint8Array;
    const before = await part(original, 'word/document.xml');
    const after = await part(bytes, 'word/document.xml');
    const a = scanParagraphs(before);
    const b = scanParagraphs(after);
    expect(b).toHaveLength(a.length);
    let changed = 0;
    a.forEach((span, i) => {
      const other = b[i];
      if (!other) throw new Error('paragraph lost');
      const was = before.slice(span.start, span.end);
      const now = after.slice(other.start, other.end);
      if (was !== now) {
        changed++;
        expect(now).toContain('w:author="Folio"');
      }
      // The bytes between this paragraph and the next are the same.
      const nextA = a[i + 1]?.start ?? before.length;
      const nextB = b[i + 1]?.start ?? after.length;
      expect(after.slice(other.end, nextB)).toBe(before.slice(span.end, nextA));
    });
    expect(changed).toBe(3);
    expect(after.slice(0, b[0]?.start)).toBe(before.slice(0, a[0]?.start));
    // Another reviewer's change and comment anchors are still there, byte for byte.
    expect(after).toContain(ALICE_INS);
    expect(after).toContain(ALICE_DEL);
    expect(after).toContain('<w:commentRangeStart w:id="1"/>');

    const zipA = await JSZip.loadAsync(original);
    const zipB = await JSZip.loadAsync(bytes);
    expect(Object.keys(zipB.files)).toEqual(Object.keys(zipA.files));
    for (const name of Object.keys(zipA.files)) {
      if (name === 'word/document.xml' || name === 'word/comments.xml') continue;
      expect(await zipB.file(name)?.async('string'), name).toBe(await zipA.file(name)?.async('string'));
    }
    const commentsBefore = await part(original, 'word/comments.xml');
    expect(await part(bytes, 'word/comments.xml')).toContain(commentsBefore.slice(0, commentsBefore.lastIndexOf('</w:comments>')));
  });

  it('reports finds it cannot place, and writes nothing when no edit applies', async () => {
    const original = await makeDocx(PARTS);
    const result = await reviseDocx(original, [
      { find: '不存在的句子', replace: 'x', reason: 'r' },
      { find: '本项目 拟研究', replace: 'x', reason: 'r' },
      { find: '重复短语', replace: '短语', reason: 'r' },
      { find: '审稿人新增', replace: '改写', reason: 'r' },
      { find: '第 3 页', replace: '第 4 页', reason: 'r' },
      { find: '见脚注说明', replace: '见脚注的说明', reason: 'r' },
      { find: 'Recall@10', replace: 'Recall@10', reason: 'r' },
      { find: '数据集一', replace: '数据集\n一', reason: 'r' },
      { find: 'Recall@10\n数据集', replace: 'Recall', reason: 'r' },
    ]);
    expect(result.bytes).toBeNull();
    expect(result.outcomes.map((o) => o.status)).toEqual(['not_found', 'not_found', 'ambiguous', 'locked', 'locked', 'locked', 'invalid', 'invalid', 'locked']);
    expect(result.outcomes[1]?.message).toMatch(/spacing/u);
    expect(result.outcomes[2]?.places?.map((p) => p.paragraph)).toEqual([4, 5]);
    expect(result.outcomes[2]?.message).toMatch(/body ¶4 .*body ¶5/u);
    expect(result.outcomes[3]?.message).toMatch(/another tracked change/u);
    expect(result.outcomes[4]?.message).toMatch(/field/u);
    expect(result.outcomes[5]?.message).toMatch(/footnote reference/u);
    expect(result.outcomes[8]?.message).toMatch(/table cell/u);
  });

  it('reports an edit overlapping an earlier one and still applies the first', async () => {
    const result = await reviseDocx(await makeDocx({ body: para('甲乙丙丁戊己庚辛') }), [
      { find: '乙丙丁', replace: '乙丁', reason: 'a' },
      { find: '丁戊', replace: '丁', reason: 'b' },
    ]);
    expect(result.outcomes.map((o) => o.status)).toEqual(['applied', 'overlaps']);
    expect(result.outcomes[1]?.message).toMatch(/edit 1/u);
  });

  it('adds a comments part, its content type and its relationship to a document without comments', async () => {
    const result = await reviseDocx(await makeDocx({ body: para('A plain draft sentence.') }), [{ find: 'plain', replace: 'simple', reason: 'plainer word' }]);
    expect(result.chinese).toBe(false);
    const bytes = result.bytes as Uint8Array;
    expect(await part(bytes, 'word/comments.xml')).toContain('plainer word');
    expect(await part(bytes, '[Content_Types].xml')).toContain('PartName="/word/comments.xml"');
    expect(await part(bytes, 'word/_rels/document.xml.rels')).toMatch(/relationships\/comments" Target="comments.xml"/u);
  });

  it('matches text Folio rendered with word joiners (GPT-4) and keeps the joiners it does not change', async () => {
    const J = WORD_JOINER;
    const body = [para(joinNameHyphens('基于 GPT-4 的方法在数据集-1 上')), para(joinNameHyphens('对比 BERT-2 与 T5。'))].join('');
    expect(body).toContain(`GPT${J}-${J}4`);
    const result = await reviseDocx(await makeDocx({ body }), [
      { find: 'GPT-4 的方法', replace: 'GPT-4o 的方法', reason: '型号' },
      // A model may copy the joiners too: they are ignored on its side as well.
      { find: `数据集${J}-${J}1 上`, replace: '数据集-2 上', reason: '数据集' },
      { find: 'BERT-2 与', replace: 'RoBERTa 与', reason: '换模型' },
    ]);
    expect(result.outcomes.map((o) => o.status)).toEqual(['applied', 'applied', 'applied']);
    const doc = await part(result.bytes as Uint8Array, 'word/document.xml');
    const accepted = readBack(doc, 'accept');
    // Untouched joiners stay; inserted names are held the same way; a deleted name takes its joiners with it.
    expect(accepted).toEqual([`基于 GPT${J}-${J}4o 的方法在数据集${J}-${J}2 上`, '对比 RoBERTa 与 T5。']);
    expect(readBack(doc, 'reject')).toEqual([joinNameHyphens('基于 GPT-4 的方法在数据集-1 上'), joinNameHyphens('对比 BERT-2 与 T5。')]);
  });

  it('matches across other invisible characters (soft hyphen, zero-width space, BOM) on either side', async () => {
    const result = await reviseDocx(await makeDocx({ body: para('hyphen\u00ADation and 零\u200B宽\uFEFF字符') }), [
      { find: 'hyphenation', replace: 'hyphenisation', reason: 'a' },
      { find: '零宽\u2060字', replace: '无宽字', reason: 'b' },
      { find: '\u200B\u2060', replace: 'x', reason: 'c' },
    ]);
    expect(result.outcomes.map((o) => o.status)).toEqual(['applied', 'applied', 'invalid']);
    expect(readBack(await part(result.bytes as Uint8Array, 'word/document.xml'), 'accept')).toEqual(['hyphenisation and 无\u200B宽\uFEFF字符']);
  });

  it('matches a space typed in the find against the no-break space of a grouped number, and keeps the document\'s', async () => {
    const result = await reviseDocx(await makeDocx({ body: para('随机终止 10\u202F000 次，间隔\u00A05 s') }), [
      { find: '终止 10 000 次', replace: '终止 20 000 次', reason: '次数' },
      { find: '间隔 5 s', replace: '间隔 6 s', reason: '间隔' },
    ]);
    expect(result.outcomes.map((o) => o.status)).toEqual(['applied', 'applied']);
    expect(readBack(await part(result.bytes as Uint8Array, 'word/document.xml'), 'accept')).toEqual(['随机终止 20\u202F000 次，间隔\u00A06 s']);
  });

  it('applies several edits in one paragraph, in any order, each where it was found', async () => {
    const result = await reviseDocx(await makeDocx({ body: para('The first draft of ', 'the plan and the budget.') }), [
      { find: 'first draft', replace: 'second full draft', reason: 'a' },
      { find: 'budget', replace: 'costs', reason: 'b' },
      { find: 'The', replace: 'A', reason: 'c' },
    ]);
    expect(result.outcomes.map((o) => o.status)).toEqual(['applied', 'applied', 'applied']);
    const doc = await part(result.bytes as Uint8Array, 'word/document.xml');
    expect(readBack(doc, 'accept')).toEqual(['A second full draft of the plan and the costs.']);
    expect(readBack(doc, 'reject')).toEqual(['The first draft of the plan and the budget.']);
  });

  it('refuses a file that is not a Word package', async () => {
    await expect(reviseDocx(new TextEncoder().encode('not a zip'), [])).rejects.toThrow(/not a zip/u);
  });

  it('accepting all changes gives the replaced text and rejecting all the original (any split into runs)', async () => {
    const piece = fc.constantFrom('研究', '方法', 'data', ' ', '模型', 'set', '，', 'x1', '。');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(piece, { minLength: 1, maxLength: 3 }).map((p) => p.join('')), { minLength: 2, maxLength: 6 }), fc.nat(), fc.nat(), fc.array(piece, { maxLength: 4 }), async (runs, a, b, repl) => {
        const text = runs.join('');
        const start = a % text.length;
        const end = start + 1 + (b % (text.length - start));
        const find = text.slice(start, end);
        const replace = repl.join('');
        fc.pre(text.indexOf(find) === text.lastIndexOf(find) && find !== replace);
        const result = await reviseDocx(await makeDocx({ body: para(...runs) }), [{ find, replace, reason: 'p' }]);
        expect(result.outcomes[0]?.status).toBe('applied');
        const doc = await part(result.bytes as Uint8Array, 'word/document.xml');
        expect(readBack(doc, 'accept')).toEqual([text.slice(0, start) + replace + text.slice(end)]);
        expect(readBack(doc, 'reject')).toEqual([text]);
      }),
      { numRuns: 60 },
    );
  });
});

const PYTHON = '/usr/bin/python3';
const hasPythonDocx = spawnSync(PYTHON, ['-c', 'import docx'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!hasPythonDocx)('python-docx reads a revised document (needs apt-get install python3-docx)', () => {
  it('opens it and finds Folio insertions, deletions and comments next to the other reviewer\'s', async () => {
    const bytes = (await reviseDocx(await makeDocx(PARTS), EDITS, { date: DATE })).bytes as Uint8Array;
    const dir = mkdtempSync(join(tmpdir(), 'folio-revise-'));
    try {
      const file = join(dir, 'revised.docx');
      writeFileSync(file, bytes);
      const script = `
import sys, json, docx
from docx.oxml.ns import qn
d = docx.Document(sys.argv[1])
body = d.element.body
ins = [e for e in body.iter(qn('w:ins')) if e.get(qn('w:author')) == 'Folio']
dels = [e for e in body.iter(qn('w:del')) if e.get(qn('w:author')) == 'Folio']
others = [e.get(qn('w:author')) for e in body.iter(qn('w:ins'), qn('w:del')) if e.get(qn('w:author')) != 'Folio']
part = [p for p in d.part.package.parts if p.partname.endswith('/comments.xml')][0]
from lxml import etree
root = etree.fromstring(part.blob)
comments = [(c.get(qn('w:author')), ''.join((t.text or '') for t in c.iter(qn('w:t')))) for c in root.iter(qn('w:comment'))]
def text(e):
    return ''.join((t.text or '') for t in e.iter(qn('w:t')))
print(json.dumps({'ins': [text(e) for e in ins], 'dels': len(dels), 'dates': sorted({e.get(qn('w:date')) for e in ins + dels}), 'others': others, 'comments': comments, 'paragraphs': len(d.paragraphs)}, ensure_ascii=False))
`;
      const out = JSON.parse(execFileSync(PYTHON, ['-c', script, file], { encoding: 'utf8' })) as {
        ins: string[];
        dels: number;
        dates: string[];
        others: string[];
        comments: [string, string][];
      };
      expect(out.ins).toEqual(expect.arrayContaining(['red', '20']));
      expect(out.dels).toBeGreaterThanOrEqual(4);
      expect(out.dates).toEqual(['2026-01-15T08:30:00Z']);
      expect(out.others).toEqual(['Alice', 'Alice']);
      expect(out.comments).toEqual(expect.arrayContaining([['Alice', 'Alice 的意见'], ['Folio', 'colour'], ['Folio', '两段合并']]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
