// The document.json of a proposal/report folder, and the templates it can name. Pure data: the
// main-process engine renders it to .docx, the renderer's preview reads the same outline and numbering.
import { z } from 'zod';

export const documentTemplateNames = ['nsfc', 'report', 'generic'] as const;
export const DocumentTemplateName = z.enum(documentTemplateNames);
export type DocumentTemplateName = z.infer<typeof DocumentTemplateName>;

/** A section file is named relative to `sections/`; subfolders and parent references are refused. */
const sectionFileName = z
  .string()
  .min(1)
  .regex(/^[^/\\]+\.md$/, 'must be a .md file name inside sections/ (no folders, no "..")')
  .refine((name) => name !== '..' && !name.startsWith('.'), 'must not be a hidden or parent path');

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
  })
  .strict();
export type DocumentSpec = z.infer<typeof DocumentSpec>;

/** How headings are numbered: `1 / 1.1 / 1.1.1`, or `一、 / （一） / 1.` as Chinese official documents do. */
export type HeadingNumbering = 'decimal' | 'chinese';

export type OutlineEntry = {
  /** The title the template expects. */
  title: string;
  /** Other headings that count as this section (matched after removing spaces and punctuation). */
  aliases: readonly string[];
};

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

// The body of an NSFC 面上/青年 application ("报告正文"), in the order the official outline asks for.
const nsfcOutline: readonly OutlineEntry[] = [
  { title: '立项依据', aliases: ['项目的立项依据', '立项依据与研究意义'] },
  { title: '研究目标', aliases: [] },
  { title: '研究内容', aliases: [] },
  { title: '拟解决的关键科学问题', aliases: ['关键科学问题'] },
  { title: '研究方案与可行性分析', aliases: ['拟采取的研究方案及可行性分析', '研究方案及可行性分析', '研究方案'] },
  { title: '特色与创新之处', aliases: ['本项目的特色与创新之处', '创新之处'] },
  { title: '年度研究计划与预期研究成果', aliases: ['年度研究计划及预期研究成果', '研究计划与预期成果'] },
  { title: '研究基础与工作条件', aliases: ['研究基础', '工作条件', '研究基础和工作条件'] },
  { title: '参考文献', aliases: ['主要参考文献', 'References'] },
];

export const documentTemplates: Record<DocumentTemplateName, DocumentTemplate> = {
  nsfc: {
    name: 'nsfc',
    label: '国家自然科学基金申请书（正文）',
    headingNumbering: 'chinese',
    page: A4,
    marginsMm: { top: 25.4, right: 31.8, bottom: 25.4, left: 31.8 },
    bodySizePt: 12,
    lineSpacing: 1.5,
    outline: nsfcOutline,
  },
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

/** The expected sections of the template that none of the given headings match. */
export function missingOutlineEntries(name: DocumentTemplateName, headings: readonly string[]): OutlineEntry[] {
  return templateOutline(name).filter((entry) => !headings.some((heading) => matchesOutlineEntry(entry, heading)));
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

/**
 * The label a heading gets from its counters (`[2, 1]` is the first subheading of the second heading):
 * decimal `2.1`, chinese `（一）`. The Word numbering the engine writes produces the same text; this
 * copy is for the table of contents and previews, which don't run Word's numbering.
 */
export function headingLabel(numbering: HeadingNumbering, counters: readonly number[]): string {
  if (counters.length === 0) return '';
  if (numbering === 'decimal') return counters.join('.');
  const level = counters.length - 1;
  const own = counters[level] ?? 1;
  if (level === 0) return `${chineseCounting(own)}、`;
  if (level === 1) return `（${chineseCounting(own)}）`;
  return `${own}.`;
}

// ---- How long a template's sections are expected to be on the page (the pagination pass checks it) ----

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
const nsfcLengths: readonly SectionLengthGuide[] = [
  {
    sections: ['立项依据', '研究目标', '研究内容', '拟解决的关键科学问题', '研究方案与可行性分析', '特色与创新之处', '年度研究计划与预期研究成果'],
    maxChars: 8000,
    basis: 'NSFC 撰写提纲: 立项依据与研究内容 建议8000字以下',
  },
  { sections: ['立项依据'], pages: [2, 5], basis: NSFC_BASIS },
  { sections: ['研究方案与可行性分析'], pages: [2, 5], basis: NSFC_BASIS },
  { sections: ['特色与创新之处'], pages: [0.25, 1.5], basis: NSFC_BASIS },
  { sections: ['年度研究计划与预期研究成果'], pages: [0.5, 2], basis: NSFC_BASIS },
];

const sectionLengthGuides: Partial<Record<DocumentTemplateName, readonly SectionLengthGuide[]>> = { nsfc: nsfcLengths };

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
