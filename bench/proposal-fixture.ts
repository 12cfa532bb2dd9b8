// A long proposal folder (document.json + sections/*.md) in the NSFC outline: Chinese prose with
// English terms, bullet and numbered lists, and tables. Deterministic, so every run renders the same
// text. It uses only the Markdown both renderers understand (see python_docx_render.py).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const CHAPTERS = ['立项依据', '研究目标', '研究内容', '拟解决的关键科学问题', '研究方案与可行性分析', '特色与创新之处', '年度研究计划与预期研究成果', '研究基础与工作条件', '参考文献'];

const zhClauses = [
  '文档是人类记录和传递知识的主要载体',
  '半结构化文档中蕴含着大量高价值信息',
  '现有方法高度依赖大规模标注数据与充足的算力',
  '大量行业文档存在标注样本稀缺、版式多样、语种混杂等特点',
  '当标注样本少于一百份时现有模型的实体抽取效果明显下降',
  '本项目拟从表示学习、数据增强与知识迁移三个方面展开研究',
  '我们将构建覆盖政务、医疗与金融三类场景的评测基准',
  '研究成果有望推动文档智能技术在基层单位的落地应用',
  '该问题涉及视觉、版面与语言三种模态信息的联合建模',
  '前期实验表明所提方法在低资源条件下具有明显优势',
];
const enClauses = [
  'layout-aware pre-training such as LayoutLMv3 reaches strong results on FUNSD and CORD',
  'few-shot adaptation with parameter-efficient fine-tuning (LoRA) reduces the labelled data needed',
  'OCR-free generative models like Donut trade annotation cost for compute',
  'retrieval-augmented generation keeps every extracted field traceable to its source page',
  'cross-lingual transfer from English to Chinese and minority languages remains an open problem',
];

/** A small deterministic generator, so the fixture is identical on every run and machine. */
function makeRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function paragraph(random: () => number, n: number): string {
  const parts: string[] = [];
  for (let i = 0; i < 7; i++) {
    const zh = zhClauses[Math.floor(random() * zhClauses.length)];
    parts.push(i === 2 ? `**${zh}**` : zh);
    if (i % 3 === 1) parts.push(`（${enClauses[Math.floor(random() * enClauses.length)]}）`);
  }
  return `${parts.join('，')}。这一点在第 ${n} 组实验中得到了验证，English summary: ${enClauses[n % enClauses.length]}.`;
}

function bulletList(random: () => number): string {
  const items = Array.from({ length: 4 }, (_, i) => `- ${zhClauses[Math.floor(random() * zhClauses.length)]}；${enClauses[(i + 1) % enClauses.length]}`);
  items.splice(2, 0, `  - 子项：${zhClauses[Math.floor(random() * zhClauses.length)]}`);
  return items.join('\n');
}

function numberedList(random: () => number): string {
  return Array.from({ length: 4 }, (_, i) => `${i + 1}. 第${i + 1}步：${zhClauses[Math.floor(random() * zhClauses.length)]}（step ${i + 1}）`).join('\n');
}

function table(chapter: number, sub: number): string {
  const rows = Array.from({ length: 6 }, (_, r) => `| 方法 ${r + 1} / Method ${r + 1} | ${(70 + ((chapter * 7 + sub * 3 + r * 5) % 25)).toFixed(1)} | ${(50 + ((chapter + r * 9) % 40)).toFixed(1)} | 场景 ${(r % 3) + 1} |`);
  return ['| 方法 Method | F1 (%) | 召回率 Recall (%) | 适用场景 |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

export interface ProposalShape {
  subsectionsPerChapter: number;
  paragraphsPerSubsection: number;
}

/** Writes the folder; returns the number of CJK characters in its sections. */
export function writeProposalFolder(dir: string, shape: ProposalShape): { cjkChars: number } {
  const random = makeRandom(20250301);
  mkdirSync(join(dir, 'sections'), { recursive: true });
  const files: string[] = [];
  let cjkChars = 0;
  let n = 0;
  CHAPTERS.forEach((chapter, c) => {
    const blocks: string[] = [`# ${chapter}`];
    for (let s = 0; s < shape.subsectionsPerChapter; s++) {
      blocks.push(`## ${chapter}之${s + 1}：Part ${s + 1}`);
      for (let p = 0; p < shape.paragraphsPerSubsection; p++) blocks.push(paragraph(random, ++n));
      if (s % 2 === 0) blocks.push(bulletList(random));
      else blocks.push(numberedList(random));
      if (s % 3 === 1) blocks.push(`### 实验数据 Results ${c + 1}.${s + 1}`, table(c, s));
      blocks.push(paragraph(random, ++n));
    }
    const markdown = `${blocks.join('\n\n')}\n`;
    cjkChars += markdown.match(/[\u4e00-\u9fff]/g)?.length ?? 0;
    const file = `${String(c + 1).padStart(2, '0')}_section.md`;
    writeFileSync(join(dir, 'sections', file), markdown);
    files.push(file);
  });
  const spec = {
    title: '面向低资源场景的文档智能理解关键技术研究（基准测试版）',
    subtitle: '国家自然科学基金面上项目申请书（正文）',
    authors: ['张明远', '李晓雯', 'Hao Wang'],
    organization: '某某大学 计算机科学与技术学院',
    date: '2025年3月',
    template: 'nsfc',
    language: 'zh-CN',
    sections: files,
  };
  writeFileSync(join(dir, 'document.json'), `${JSON.stringify(spec, null, 2)}\n`);
  return { cjkChars };
}
