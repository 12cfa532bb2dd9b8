// The deck plan: every output slide as positioned elements, computed once by the layout engine
// (src/main/renderers/deck/plan) from a spec, a theme and measured text. The .pptx renderer draws
// the plan and the in-app preview draws the same plan (stored in the artifact's preview sidecar), so
// no position, size or colour is computed twice, and the rendered-slide check compares what
// LibreOffice drew with the boxes the plan meant.
//
// Units: inches from the slide's top-left corner (as in the .pptx); font sizes in points; colours
// 6-digit hex without '#', as in themes.
import { z } from 'zod';
import { CHART_TYPES } from './deck';

const Hex = z.string().regex(/^[0-9A-Fa-f]{6}$/);

export const PlanBox = z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() });
export type PlanBox = z.infer<typeof PlanBox>;

/**
 * What a text element is for. Drawers style nothing from it (styles are explicit below); the
 * rendered check and accessibility use it (a `title` becomes the slide's title placeholder).
 */
export const TEXT_ROLES = ['title', 'subtitle', 'body', 'caption', 'label', 'stat', 'quote', 'attribution', 'footer', 'number'] as const;
export const TextRole = z.enum(TEXT_ROLES);
export type TextRole = z.infer<typeof TextRole>;

export const PlanParagraph = z.object({
  text: z.string(),
  /** 0 = top level; 1 = sub-bullet. */
  level: z.number().int().min(0).max(2),
  bullet: z.enum(['none', 'disc', 'number']),
  sizePt: z.number().positive(),
  bold: z.boolean(),
  color: Hex,
  /** Space after the paragraph, points. */
  spaceAfterPt: z.number().min(0),
  /** Where a bulleted paragraph's text starts, points from the box's left edge, when a template's bullets set it (else the bullet indent per level). */
  marginPt: z.number().min(0).optional(),
  /**
   * The lines the file sets this paragraph in, when the engine writes its breaks in (Chinese text, a
   * balanced two-line heading, a formula longer than the line): the preview breaks at the same
   * places. Absent: the client wraps the text, and so does the preview.
   */
  lines: z.array(z.string()).optional(),
});
export type PlanParagraph = z.infer<typeof PlanParagraph>;

export const TextElement = z.object({
  kind: z.literal('text'),
  /** Unique within the slide ("title", "body", "card-2-title"): report messages name it. */
  id: z.string(),
  role: TextRole,
  box: PlanBox,
  /** Theme face family: CJK runs get the theme's CJK face for this role, Latin runs the Latin one. */
  font: z.enum(['heading', 'body', 'code']),
  paragraphs: z.array(PlanParagraph),
  align: z.enum(['left', 'center', 'right', 'justify']),
  valign: z.enum(['top', 'middle', 'bottom']),
  /** Line height as a multiple of each paragraph's size, written as exact spacing. */
  lineHeight: z.number().positive(),
  /** Lines the measurer expects (all paragraphs), so the preview and the check can compare. */
  lines: z.number().int().min(0),
  /** Drawn by the slide master in the .pptx (footer text, slide number); the preview draws it. */
  fromMaster: z.boolean().optional(),
});
export type TextElement = z.infer<typeof TextElement>;

export const SHAPES = ['rect', 'roundRect', 'ellipse', 'line', 'rightArrow', 'chevron'] as const;
export const ShapeElement = z.object({
  kind: z.literal('shape'),
  id: z.string(),
  shape: z.enum(SHAPES),
  box: PlanBox,
  fill: Hex.optional(),
  line: z.object({ color: Hex, widthPt: z.number().positive() }).optional(),
  /** Corner radius for roundRect, inches. */
  radius: z.number().min(0).optional(),
});
export type ShapeElement = z.infer<typeof ShapeElement>;

export const ImageElement = z.object({
  kind: z.literal('image'),
  id: z.string(),
  box: PlanBox,
  /** Relative to the task folder, as in the spec. */
  path: z.string(),
  /** contain: whole picture inside the box (letterboxed); cover: fills the box, cropped. */
  fit: z.enum(['contain', 'cover']),
  /** The picture's pixel size, when it could be read (upscaling is judged from it). */
  pixels: z.object({ w: z.number().int().positive(), h: z.number().int().positive() }).optional(),
});
export type ImageElement = z.infer<typeof ImageElement>;

export const IconElement = z.object({
  kind: z.literal('icon'),
  id: z.string(),
  box: PlanBox,
  /** A Lucide icon name ("chart-line"). */
  name: z.string(),
  color: Hex,
});
export type IconElement = z.infer<typeof IconElement>;

export const PlanChartSeries = z.object({
  name: z.string(),
  values: z.array(z.number()),
  /** One colour per series... */
  color: Hex,
  /** ...unless some points differ (the highlighted category; pie slices): one per value. */
  pointColors: z.array(Hex).optional(),
});

export const ChartElement = z.object({
  kind: z.literal('chart'),
  id: z.string(),
  box: PlanBox,
  type: z.enum(CHART_TYPES),
  title: z.string().optional(),
  /** In reading order: horizontal bars list the first category at the top. */
  categories: z.array(z.string()),
  series: z.array(PlanChartSeries),
  legend: z.enum(['none', 'bottom', 'right']),
  dataLabels: z.boolean(),
  /** Number format of data labels ("0", "0.0", "0%"). */
  numberFormat: z.string(),
  /**
   * The value axis's scale and tick format (see chart-axis.ts), the same in the .pptx and the
   * preview; absent for pie and doughnut charts, and in plans made before it existed.
   */
  valueAxis: z.object({ min: z.number(), max: z.number(), step: z.number().positive(), numberFormat: z.string() }).optional(),
  xTitle: z.string().optional(),
  yTitle: z.string().optional(),
  /** Axis and label text size, points, and their face ('heading' | 'body' family as for text). */
  fontSizePt: z.number().positive(),
  textColor: Hex,
  mutedColor: Hex,
  gridColor: Hex,
});
export type ChartElement = z.infer<typeof ChartElement>;

export const TableElement = z.object({
  kind: z.literal('table'),
  id: z.string(),
  box: PlanBox,
  header: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  /** Column widths, inches, summing to box.w: sized from content so no header word breaks. */
  colWidths: z.array(z.number().positive()),
  /** Per column: numbers right-aligned. */
  align: z.array(z.enum(['left', 'center', 'right'])),
  /** Row heights, inches (header first): as measured, plus the padding below. */
  rowHeights: z.array(z.number().positive()),
  /**
   * Padding above and below every cell's text, inches: the base padding, more when a short table's
   * rows are given room. Absent in plans made before it: the base (TABLE_CELL_PAD_Y_IN).
   */
  cellPadY: z.number().nonnegative().optional(),
  sizePt: z.number().positive(),
  headerFill: Hex,
  headerColor: Hex,
  textColor: Hex,
  /** Body rows' fill; the slide background when absent. */
  bodyFill: Hex.optional(),
  zebraFill: Hex.optional(),
  borderColor: Hex,
});
export type TableElement = z.infer<typeof TableElement>;

export const PlanElement = z.discriminatedUnion('kind', [TextElement, ShapeElement, ImageElement, IconElement, ChartElement, TableElement]);
export type PlanElement = z.infer<typeof PlanElement>;
export type PlanElementKind = PlanElement['kind'];

export const PlannedSlide = z.object({
  /** 0-based index of the spec slide this output slide came from. */
  source_index: z.number().int().min(0),
  /** 0 for the first output slide of a spec slide, 1.. for continuations. */
  part: z.number().int().min(0),
  /** Content slides carry the master's footer and number; hero slides (title, section, closing) do not. */
  master: z.enum(['content', 'plain']),
  background: Hex,
  /** In drawing (and reading) order. */
  elements: z.array(PlanElement),
  /** Speaker notes: the spec's notes plus any text moved off the slide to keep it readable. */
  notes: z.string().optional(),
  /** The spec slide's id (continuations share it); absent in plans drawn before slides had ids. */
  slide_id: z.string().optional(),
});
export type PlannedSlide = z.infer<typeof PlannedSlide>;

export const DeckPlan = z.object({
  /** Slide size, inches. */
  size: z.object({ w: z.number().positive(), h: z.number().positive() }),
  theme: z.string(),
  slides: z.array(PlannedSlide),
  /** How text was measured: with the font files the slides use, or with width tables (less exact). */
  metrics: z.enum(['font', 'table']),
});
export type DeckPlan = z.infer<typeof DeckPlan>;

/** Compile-time exhaustiveness for switches over element kinds, layouts and the like. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unhandled ${what}: ${JSON.stringify(value)}`);
}
