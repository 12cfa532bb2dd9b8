// The document.json of a proposal/report folder, and the templates it can name. Pure data: the
// main-process engine renders it to .docx, the renderer's preview reads the same outline and numbering.
import { z } from 'zod';

// `nsfc` is the name folders written before the two NSFC schemes were told apart: those folders are flat
// (一、立项依据 … 七、其他需要说明的情况), and keep rendering so; new folders name `nsfc_general` or `nsfc_youth`.
export const documentTemplateNames = ['nsfc', 'report', 'generic', 'nsfc_general', 'nsfc_youth'] as const;
export const DocumentTemplateName = z.enum(documentTemplateNames);
export type DocumentTemplateName = z.infer<typeof DocumentTemplateName>;

/** A section file is named relative to `sections/`; subfolders and parent references are refused. */
const sectionFileName = z
  .string()
  .min(1)
  .regex(/^[^/\\]+\.md$/, 'must be a .md file name inside sections/ (no folders, no "..")')
  .refine((name) => name !== '..' && !name.startsWith('.'), 'must not be a hidden or parent path');

/** Numeric citation styles: entries numbered in order of first citation. */
export const citationStyleNames = ['gb-t-7714-2015', 'vancouver'] as const;
export type CitationStyleName = (typeof citationStyleNames)[number];

const bibliographyFile = z
  .string()
  .regex(/^[^\\]+\.(bib|json)$/iu, 'must be a .bib or CSL-JSON .json file in the document folder')
  .refine((name) => !name.split('/').some((part) => part === '..' || part === '' || part.startsWith('.')) && !name.startsWith('/'), 'must stay inside the document folder');

export const DocumentSpec = z
  .object({
    title: z.string().trim().min(1, 'title is required'),
    subtitle: z.string().optional(),
    authors: z.array(z.string().trim().min(1)).default([]),
    organization: z.string().optional(),
    date: z.string().optional(),
    template: DocumentTemplateName,
    // BCP-47-ish tag: "zh-CN", "en", "en-US", "ja"...
    language: z.string().regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, 'must be a language tag such as zh-CN or en'),
    sections: z.array(sectionFileName).min(1).optional(),
    // Also write the body alone (正文: no cover, no contents) beside the full copy, for submission
    // systems that add their own cover and contents.
    submission: z.boolean().optional(),
    // BibTeX (.bib) or CSL-JSON files in the folder that `[@key]` citations name; default: every
    // .bib and CSL-JSON .json file at the folder's top level.
    bibliography: z
      .union([bibliographyFile, z.array(bibliographyFile).min(1)])
      .optional(),
    // How citations and the reference list are written; default: GB/T 7714-2015 for Chinese documents, Vancouver otherwise.
    citation_style: z.enum(citationStyleNames).optional(),
  })
  .strict();
export type DocumentSpec = z.infer<typeof DocumentSpec>;

/**
 * How headings are numbered: `1 / 1.1 / 1.1.1`, `一、 / （一） / 1.` as Chinese official documents do, or
 * `（一） / 1. / （1）` as the NSFC 正文 outline does.
 */
export type HeadingNumbering = 'decimal' | 'chinese' | 'nsfc';

export type OutlineEntry = {
  /** The title the template expects. */
  title: string;
  /** Other headings that count as this section (matched after removing spaces and punctuation). */
  aliases: readonly string[];
  /** The Markdown heading level (`#` = 1) the section is written at; any level when absent. */
  depth?: number;
};

/** A heading of the document as the outline sees it: its text and Markdown level. */
export type OutlineHeadingRef = { text: string; depth: number };

export type DocumentTemplate = {
  name: DocumentTemplateName;
  label: string;
  headingNumbering: HeadingNumbering;
  /** Page size in millimetres, portrait. */
  page: { widthMm: number; heightMm: number };
  marginsMm: { top: number; right: number; bottom: number; left: number };
  /** Body text size in points; headings scale from it. */
  bodySizePt: number;
  /** Line spacing as a multiple of single. */
  lineSpacing: number;
  outline: readonly OutlineEntry[];
};

const A4 = { widthMm: 210, heightMm: 297 };

// The body (报告正文) of an NSFC 面上项目 / 青年科学基金项目 application, as the official 撰写提纲 lists it (the
// two schemes share it; the wording moves a little from year to year, hence the aliases):
//   （一）立项依据与研究内容 1. 项目的立项依据 2. 研究内容、研究目标，以及拟解决的关键科学问题
//        3. 拟采取的研究方案及可行性分析 4. 本项目的特色与创新之处 5. 年度研究计划及预期研究结果
//   （二）研究基础与工作条件 1. 研究基础 2. 工作条件 3. 正在承担的与本项目相关的科研项目情况
//        4. 完成国家自然科学基金项目情况
//   （三）其他需要说明的情况
// The three parts are `#` headings (numbered （一）), their items `##` (numbered 1.). A heading matches an entry
// at the entry's level when, with numbering, spaces and punctuation removed, it contains the title or an alias:
// a combined heading “研究目标、研究内容和拟解决的关键科学问题” matches all three, a `###` “技术路线” none.
const PART = 1;
const ITEM = 2;
const nsfcOutline: readonly OutlineEntry[] = [
  { title: '立项依据与研究内容', aliases: [], depth: PART },
  { title: '项目的立项依据', aliases: ['立项依据'], depth: ITEM },
  { title: '研究内容', aliases: [], depth: ITEM },
  { title: '研究目标', aliases: [], depth: ITEM },
  { title: '拟解决的关键科学问题', aliases: ['关键科学问题'], depth: ITEM },
  { title: '拟采取的研究方案及可行性分析', aliases: ['研究方案', '技术路线', '可行性分析'], depth: ITEM },
  { title: '本项目的特色与创新之处', aliases: ['特色与创新', '特色和创新', '创新之处', '创新点'], depth: ITEM },
  { title: '年度研究计划及预期研究结果', aliases: ['年度研究计划', '年度计划', '预期研究结果', '预期研究成果'], depth: ITEM },
  { title: '研究基础与工作条件', aliases: [], depth: PART },
  { title: '研究基础', aliases: ['研究工作基础'], depth: ITEM },
  { title: '工作条件', aliases: [], depth: ITEM },
  { title: '正在承担的与本项目相关的科研项目情况', aliases: ['正在承担', '在研项目'], depth: ITEM },
  { title: '完成国家自然科学基金项目情况', aliases: ['完成国家自然科学基金', '已完成的国家自然科学基金项目'], depth: ITEM },
  { title: '其他需要说明的情况', aliases: ['其他需要说明', '其他说明'], depth: PART },
  { title: '参考文献', aliases: ['主要参考文献', 'References', 'Bibliography'] },
];

// What folders naming the old `nsfc` template were written to: the same sections as flat `#` headings
// 一、…七、, matched at any level (the shallowest match counts).
const flatNsfcOutline: readonly OutlineEntry[] = [
  { title: '项目的立项依据', aliases: ['立项依据'] },
  { title: '研究内容', aliases: [] },
  { title: '研究目标', aliases: [] },
  { title: '拟解决的关键科学问题', aliases: ['关键科学问题'] },
  { title: '拟采取的研究方案及可行性分析', aliases: ['研究方案', '技术路线', '可行性分析'] },
  { title: '本项目的特色与创新之处', aliases: ['特色与创新', '特色和创新', '创新之处', '创新点'] },
  { title: '年度研究计划及预期研究结果', aliases: ['年度研究计划', '年度计划', '预期研究结果', '预期研究成果'] },
  { title: '研究基础与工作条件', aliases: ['研究基础', '工作条件'] },
  { title: '正在承担的与本项目相关的科研项目情况', aliases: ['正在承担', '在研项目'] },
  { title: '完成国家自然科学基金项目情况', aliases: ['完成国家自然科学基金', '已完成的国家自然科学基金项目'] },
  { title: '其他需要说明的情况', aliases: ['其他需要说明', '其他说明'] },
  { title: '参考文献', aliases: ['主要参考文献', 'References', 'Bibliography'] },
];

const nsfcPage = {
  page: A4,
  marginsMm: { top: 25.4, right: 31.8, bottom: 25.4, left: 31.8 },
  bodySizePt: 12,
  lineSpacing: 1.5,
} as const;

export const documentTemplates: Record<DocumentTemplateName, DocumentTemplate> = {
  nsfc: { name: 'nsfc', label: '国家自然科学基金面上项目申请书（正文）', headingNumbering: 'chinese', outline: flatNsfcOutline, ...nsfcPage },
  report: {
    name: 'report',
    label: 'Report',
    headingNumbering: 'decimal',
    page: A4,
    marginsMm: { top: 25.4, right: 25.4, bottom: 25.4, left: 25.4 },
    bodySizePt: 11,
    lineSpacing: 1.3,
    outline: [],
  },
  generic: {
    name: 'generic',
    label: 'Generic document',
    headingNumbering: 'decimal',
    page: A4,
    marginsMm: { top: 25.4, right: 25.4, bottom: 25.4, left: 25.4 },
    bodySizePt: 11,
    lineSpacing: 1.2,
    outline: [],
  },
  nsfc_general: { name: 'nsfc_general', label: '国家自然科学基金面上项目申请书（正文）', headingNumbering: 'nsfc', outline: nsfcOutline, ...nsfcPage },
  nsfc_youth: { name: 'nsfc_youth', label: '国家自然科学基金青年科学基金项目申请书（正文）', headingNumbering: 'nsfc', outline: nsfcOutline, ...nsfcPage },
};

/** The sections a template expects, in order; empty for templates without a fixed structure. */
export function templateOutline(name: DocumentTemplateName): readonly OutlineEntry[] {
  return documentTemplates[name].outline;
}

/** A heading without the number in front of it: "一、立项依据" → "立项依据", "2.1 Data" → "Data". */
export function stripHeadingNumber(text: string): string {
  return text.replace(/^\s*(?:[一二三四五六七八九十]+[、.．]|[（(][一二三四五六七八九十]+[）)]|\d+(?:\.\d+)*[.、]?)\s*/u, '');
}

/** Headings compared without whitespace, numbering and punctuation: "一、立项依据：" ≈ "立项依据". */
export function normalizeHeading(text: string): string {
  return stripHeadingNumber(text)
    .replace(/[\s\p{P}]/gu, '')
    .toLowerCase();
}

/** The expected sections of the template that no heading matches at the entry's level. */
export function missingOutlineEntries(name: DocumentTemplateName, headings: readonly OutlineHeadingRef[]): OutlineEntry[] {
  return templateOutline(name).filter((entry) => !headings.some((heading) => matchesOutlineEntryAt(entry, heading)));
}

/** Whether a heading counts as this outline entry at its level (any level for an entry without one). */
export function matchesOutlineEntryAt(entry: OutlineEntry, heading: OutlineHeadingRef): boolean {
  return (entry.depth === undefined || entry.depth === heading.depth) && matchesOutlineEntry(entry, heading.text);
}

/** Is this heading the references section, whose list is rendered as `[1] ...`? */
export function isReferencesHeading(text: string): boolean {
  const n = normalizeHeading(text);
  return n === '参考文献' || n === '主要参考文献' || n === 'references' || n === 'bibliography';
}

const CHINESE_DIGITS = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

/** 1 → 一, 10 → 十, 12 → 十二, 20 → 二十, 99 → 九十九: Word's chineseCounting for the numbers a heading uses. */
export function chineseCounting(n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > 99) return String(n);
  const tens = Math.floor(n / 10);
  const ones = n % 10;
  const tensText = tens === 0 ? '' : tens === 1 ? '十' : `${CHINESE_DIGITS[tens]}十`;
  return tensText + (ones === 0 ? '' : CHINESE_DIGITS[ones]);
}

// The one description both the .docx numbering and the preview labels read

/** A Word number format (`w:numFmt`) the engine uses. */
export type NumberFormat = 'decimal' | 'chineseCounting' | 'decimalEnclosedCircle' | 'lowerLetter' | 'lowerRoman';

/** One level of a multilevel list: its number format, its text (`%1`…`%9` stand for the levels' numbers) and what follows it. */
export type NumberingLevel = { format: NumberFormat; text: string; suffix: 'nothing' | 'space' | 'tab' };

/**
 * Heading numbers per level: `一、 / （一） / 1. / （1）` as Chinese official documents (GB/T 9704) number them,
 * `（一） / 1. / （1） / ①` for the NSFC 正文 outline, or `1 / 1.1 / 1.1.1 / 1.1.1.1`. Headings deeper than the list are styled but not numbered.
 */
export const headingNumberFormats: Record<HeadingNumbering, readonly NumberingLevel[]> = {
  chinese: [
    { format: 'chineseCounting', text: '%1、', suffix: 'nothing' },
    { format: 'chineseCounting', text: '（%2）', suffix: 'nothing' },
    { format: 'decimal', text: '%3.', suffix: 'space' },
    { format: 'decimal', text: '（%4）', suffix: 'nothing' },
  ],
  // The NSFC 正文 outline starts at （一）: its parts, their numbered items, then （1） and ① below them, the
  // Chinese sequence 一、（一）1.（1）① one level down (a Latin `a.` reads as foreign in a Chinese proposal).
  nsfc: [
    { format: 'chineseCounting', text: '（%1）', suffix: 'nothing' },
    { format: 'decimal', text: '%2.', suffix: 'space' },
    { format: 'decimal', text: '（%3）', suffix: 'nothing' },
    { format: 'decimalEnclosedCircle', text: '%4', suffix: 'nothing' },
  ],
  decimal: [
    { format: 'decimal', text: '%1', suffix: 'space' },
    { format: 'decimal', text: '%1.%2', suffix: 'space' },
    { format: 'decimal', text: '%1.%2.%3', suffix: 'space' },
    { format: 'decimal', text: '%1.%2.%3.%4', suffix: 'space' },
  ],
};

/** How many heading levels are numbered (the same for both numberings). */
export const NUMBERED_HEADING_LEVELS = headingNumberFormats.chinese.length;

/**
 * Ordered lists in the body, by nesting level (repeating after the last). Under Chinese headings, whose third
 * level is `1.`, a list numbered `1.` would read as a heading, so it counts `① ② ③`, then `a)`, then `i)`.
 */
const circledLists: readonly NumberingLevel[] = [
  { format: 'decimalEnclosedCircle', text: '%1', suffix: 'tab' },
  { format: 'lowerLetter', text: '%2)', suffix: 'tab' },
  { format: 'lowerRoman', text: '%3)', suffix: 'tab' },
];
/** Under NSFC headings, whose fourth level is `①`, lists count as GB/T 1.1 numbers 列项: `a)`, then `1)`, then `i)`. */
const standardLists: readonly NumberingLevel[] = [
  { format: 'lowerLetter', text: '%1)', suffix: 'tab' },
  { format: 'decimal', text: '%2)', suffix: 'tab' },
  { format: 'lowerRoman', text: '%3)', suffix: 'tab' },
];
export const listNumberFormats: Record<HeadingNumbering, readonly NumberingLevel[]> = {
  chinese: circledLists,
  nsfc: standardLists,
  decimal: [
    { format: 'decimal', text: '%1.', suffix: 'tab' },
    { format: 'lowerLetter', text: '%2.', suffix: 'tab' },
    { format: 'lowerRoman', text: '%3.', suffix: 'tab' },
  ],
};

const ROMAN: readonly [number, string][] = [
  [1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'], [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i'],
];

/** A number as Word writes it in `format` (decimalEnclosedCircle stops at ⑳, as Word's does; beyond it, plain digits). */
export function formatNumber(format: NumberFormat, n: number): string {
  switch (format) {
    case 'decimal':
      return String(n);
    case 'chineseCounting':
      return chineseCounting(n);
    case 'decimalEnclosedCircle':
      return n >= 1 && n <= 20 ? String.fromCodePoint(0x2460 + n - 1) : String(n);
    case 'lowerLetter': {
      // Word's letter numbering repeats the letter: a…z, aa…zz.
      const letter = String.fromCharCode(97 + ((n - 1) % 26));
      return letter.repeat(Math.floor((n - 1) / 26) + 1);
    }
    case 'lowerRoman': {
      let rest = n;
      let out = '';
      for (const [value, digits] of ROMAN) {
        while (rest >= value) {
          out += digits;
          rest -= value;
        }
      }
      return out;
    }
  }
}

/** The text of a list level for the given counters (`%k` replaced by level k's number in level k's format). */
export function levelText(levels: readonly NumberingLevel[], counters: readonly number[]): string {
  const own = levels[counters.length - 1];
  if (!own) return '';
  return own.text.replace(/%(\d)/g, (_m, k: string) => {
    const i = Number(k) - 1;
    return formatNumber(levels[i]?.format ?? 'decimal', counters[i] ?? 1);
  });
}

/**
 * The label a heading gets from its counters (`[2, 1]` is the first subheading of the second heading):
 * decimal `2.1`, chinese `（一）`. The Word numbering the engine writes produces the same text; this
 * copy is for the table of contents and previews, which don't run Word's numbering.
 */
export function headingLabel(numbering: HeadingNumbering, counters: readonly number[]): string {
  if (counters.length === 0) return '';
  return levelText(headingNumberFormats[numbering], counters);
}

/** What separates a heading's label from its title: nothing after `一、` and `（一）`, a space after `1.` or `1.1`. */
export function headingLabelJoiner(numbering: HeadingNumbering, level: number): string {
  return headingNumberFormats[numbering][level]?.suffix === 'nothing' ? '' : ' ';
}


export type SectionLengthGuide = {
  /** Titles of outline entries (as in the template's `outline`), measured together from the first to the end of the last. */
  sections: readonly string[];
  /** Recommended length in laid-out pages of the template's body text: at least, at most. */
  pages?: readonly [number, number];
  /** Recommended most characters (Han characters + Latin words), as the funder counts 字数. */
  maxChars?: number;
  /** Where the numbers come from, said in the report. */
  basis: string;
};

// NSFC's own 撰写提纲 (面上 and 青年, 2020 onwards) asks for "（一）立项依据与研究内容（建议8000字以下）" — the
// part from 立项依据 to 年度研究计划 — (the 2016 提纲 said 4000–8000字); it sets no length per section. 8000
// characters of 小四 at 1.5 lines on NSFC's page (~34 characters × ~27 lines) is about 8–9 pages, so the page
// ranges below share that part as reviewers' advice commonly does: the rationale and the research plan carry
// about a third each (2–5 pages), innovation is a few crisp points (at most a page and a half), the yearly plan
// a table or list (half a page to two pages).
const NSFC_BASIS = 'reviewer practice within the 8000-character 立项依据与研究内容 part';
const perSectionLengths: readonly SectionLengthGuide[] = [
  { sections: ['项目的立项依据'], pages: [2, 5], basis: NSFC_BASIS },
  { sections: ['拟采取的研究方案及可行性分析'], pages: [2, 5], basis: NSFC_BASIS },
  { sections: ['本项目的特色与创新之处'], pages: [0.25, 1.5], basis: NSFC_BASIS },
  { sections: ['年度研究计划及预期研究结果'], pages: [0.5, 2], basis: NSFC_BASIS },
];
const NSFC_CHARS = { maxChars: 8000, basis: 'NSFC 撰写提纲: 立项依据与研究内容 建议8000字以下' };
const nsfcLengths: readonly SectionLengthGuide[] = [{ sections: ['立项依据与研究内容'], ...NSFC_CHARS }, ...perSectionLengths];
// A flat folder has no part heading: the part is its sections from 立项依据 to 年度研究计划.
const flatNsfcLengths: readonly SectionLengthGuide[] = [
  {
    sections: ['项目的立项依据', '研究内容', '研究目标', '拟解决的关键科学问题', '拟采取的研究方案及可行性分析', '本项目的特色与创新之处', '年度研究计划及预期研究结果'],
    ...NSFC_CHARS,
  },
  ...perSectionLengths,
];

const sectionLengthGuides: Partial<Record<DocumentTemplateName, readonly SectionLengthGuide[]>> = {
  nsfc: flatNsfcLengths,
  nsfc_general: nsfcLengths,
  nsfc_youth: nsfcLengths,
};

/** The length guides of a template; none for templates without a fixed structure. */
export function templateLengthGuides(name: DocumentTemplateName): readonly SectionLengthGuide[] {
  return sectionLengthGuides[name] ?? [];
}

/** Whether a heading counts as this outline entry: its title or an alias, after normalising both, is in the heading. */
export function matchesOutlineEntry(entry: OutlineEntry, heading: string): boolean {
  const present = normalizeHeading(heading);
  return [entry.title, ...entry.aliases].some((candidate) => {
    const wanted = normalizeHeading(candidate);
    return present === wanted || present.includes(wanted);
  });
}
