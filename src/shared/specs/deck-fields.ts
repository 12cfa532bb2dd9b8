// The deck spec's building blocks: text limits, asset paths, bullets, columns, charts and tables, which
// the slide layouts in deck.ts are made of.
import { z } from 'zod';

export const CHART_TYPES = ['bar', 'column', 'line', 'pie', 'doughnut', 'area', 'scatter'] as const;
export type ChartType = (typeof CHART_TYPES)[number];
/** Chart types where one category can be drawn in the accent colour. */
const HIGHLIGHT_TYPES: ReadonlySet<ChartType> = new Set(['bar', 'column', 'pie', 'doughnut']);

export const MAX_TEXT = 2000;
export const text = z.string().max(MAX_TEXT);
export const requiredText = z.string().trim().min(1, 'must not be empty').max(MAX_TEXT);

/**
 * A path relative to the task folder. Absolute paths, drive letters, URLs and `..` segments are
 * rejected here; the renderer confines again after resolving symlinks.
 */
export const RelativeAssetPath = z
  .string()
  .min(1, 'must not be empty')
  .max(500)
  .refine((p) => !/^[/\\]/.test(p) && !/^[A-Za-z]:/.test(p), {
    message: 'must be relative to the task folder (no absolute path)',
  })
  .refine((p) => !/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(p), { message: 'must be a file in the task folder, not a URL' })
  .refine((p) => !p.split(/[/\\]/).includes('..'), { message: 'must not contain ".." segments' });

export const BulletItem = z.union([z.string().max(MAX_TEXT), z.strictObject({ text, sub: z.array(text).max(20) })]);
export type BulletItem = z.infer<typeof BulletItem>;

/** Lines of code on one side of a slide: kept as written, one line each, never wrapped. */
export const MAX_CODE_LINES = 40;
export const MAX_CODE_LINE = 200;
export const CodeText = z
  .string()
  .max(MAX_CODE_LINES * (MAX_CODE_LINE + 1))
  .superRefine((code, ctx) => {
    const lines = code.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
    if (lines.every((l) => l.trim() === '')) ctx.addIssue({ code: 'custom', message: 'must not be empty' });
    if (lines.length > MAX_CODE_LINES) ctx.addIssue({ code: 'custom', message: `${lines.length} lines of code; at most ${MAX_CODE_LINES} fit on a slide: show the part that matters` });
    const long = lines.findIndex((l) => Array.from(l).length > MAX_CODE_LINE);
    if (long >= 0) ctx.addIssue({ code: 'custom', message: `line ${long + 1} has more than ${MAX_CODE_LINE} characters; break it as the code would be formatted` });
  });
/** The language a code block is written in, shown as its label: "python", "SQL", "C++". */
export const CodeLanguage = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(24)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} +#._-]*$/u, 'a language name like "python", "SQL" or "C++"');

/** One side of a two_column slide: exactly one of bullets, image, text or code. */
export const ColumnContent = z
  .strictObject({
    bullets: z.array(BulletItem).max(100).optional(),
    image: RelativeAssetPath.optional(),
    caption: text.optional(),
    text: text.optional(),
    /** Code, set in a monospace face line for line (see plan/code.ts). */
    code: CodeText.optional(),
    language: CodeLanguage.optional(),
  })
  .superRefine((col, ctx) => {
    const kinds = (['bullets', 'image', 'text', 'code'] as const).filter((k) => col[k] !== undefined);
    if (kinds.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message:
          kinds.length === 0
            ? 'expected one of {bullets}, {image, caption?}, {text} or {code, language?}'
            : `expected only one of bullets, image, text, code; got ${kinds.join(' and ')}`,
      });
    }
    if (col.caption !== undefined && col.image === undefined) {
      ctx.addIssue({ code: 'custom', path: ['caption'], message: 'caption is only allowed with image' });
    }
    if (col.language !== undefined && col.code === undefined) {
      ctx.addIssue({ code: 'custom', path: ['language'], message: 'language is only allowed with code' });
    }
  });
export type ColumnContent = z.infer<typeof ColumnContent>;

export const ChartSeries = z.strictObject({
  name: requiredText,
  values: z.array(z.number().finite()).max(500),
});

export const ChartSpec = z
  .strictObject({
    type: z.enum(CHART_TYPES),
    title: text.optional(),
    categories: z.array(z.string().max(200)).min(1).max(500),
    series: z.array(ChartSeries).min(1).max(20),
    x_title: text.optional(),
    y_title: text.optional(),
    unit: z.string().max(20).optional(),
    /** A category drawn in the accent colour (the one bar or slice that matters); others recede. */
    highlight: z.string().max(200).optional(),
  })
  .superRefine((chart, ctx) => {
    const n = chart.categories.length;
    chart.series.forEach((s, i) => {
      if (s.values.length === 0) {
        ctx.addIssue({ code: 'custom', path: ['series', i, 'values'], message: 'empty series: give one number per category' });
      } else if (s.values.length !== n) {
        ctx.addIssue({
          code: 'custom',
          path: ['series', i, 'values'],
          message: `expected ${n} numbers, got ${s.values.length}`,
        });
      }
    });
    if (chart.highlight !== undefined) {
      if (!chart.categories.includes(chart.highlight)) {
        ctx.addIssue({
          code: 'custom',
          path: ['highlight'],
          message: `"${chart.highlight}" is not a category; the categories are: ${chart.categories.slice(0, 12).join(', ')}`,
        });
      } else if (!HIGHLIGHT_TYPES.has(chart.type) || chart.series.length !== 1) {
        ctx.addIssue({
          code: 'custom',
          path: ['highlight'],
          message: 'highlight needs a bar, column, pie or doughnut chart with one series',
        });
      }
    }
    if ((chart.type === 'pie' || chart.type === 'doughnut') && chart.series.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['series'],
        message: `a ${chart.type} chart shows exactly one series, got ${chart.series.length}`,
      });
    }
    if (chart.type === 'scatter' && chart.categories.some((c) => !Number.isFinite(Number(c)) || c.trim() === '')) {
      ctx.addIssue({
        code: 'custom',
        path: ['categories'],
        message: 'a scatter chart needs numeric categories (they are the x values)',
      });
    }
  });
export type ChartSpec = z.infer<typeof ChartSpec>;

export const TableSpec = z
  .strictObject({
    header: z.array(z.string().max(500)).min(1).max(12),
    rows: z.array(z.array(z.string().max(MAX_TEXT))).max(1000),
  })
  .superRefine((table, ctx) => {
    const n = table.header.length;
    table.rows.forEach((row, i) => {
      if (row.length !== n) {
        ctx.addIssue({ code: 'custom', path: ['rows', i], message: `expected ${n} cells (one per header), got ${row.length}` });
      }
    });
  });
export type TableSpec = z.infer<typeof TableSpec>;
