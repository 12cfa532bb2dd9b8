// The quality report every render returns (also shown in the UI next to the preview).
import { z } from 'zod';

export const QUALITY_ISSUE_KINDS = [
  'shrunk',
  'split',
  'dropped',
  'overflow_risk',
  'empty',
  'near_empty',
  'too_many_words',
  'missing_image',
  // A slide whose content cannot be drawn (a chart of nothing but zeros): a framed placeholder says why.
  'placeholder',
  'low_contrast',
  // Found by reading the rendered slides back (LibreOffice → PDF → word positions):
  'off_slide',
  'outside_box',
  'in_footer',
  'overlap',
  'title_lines',
  'underfilled',
  'upscaled_image',
  // Found in the plan: a chart series or slice drawn but invisible (its legend entry names nothing seen):
  'hidden_series',
  // Found in the plan: a chart or axis title too long for the line LibreOffice gives it, drawn wrapped:
  'chart_title',
  // Typography and fonts:
  'font_fallback',
  'emoji_font',
  // Text holding U+FFFD, the replacement character a decoder leaves for bytes it could not read:
  'garbled_text',
  // A typed space beside the renderer's own gap between Chinese and Latin text (read from the rendered slide):
  'spacing',
  'restructured',
] as const;
export const QualityIssueKind = z.enum(QUALITY_ISSUE_KINDS);
export type QualityIssueKind = z.infer<typeof QualityIssueKind>;
export const QualityIssue = z.object({ kind: QualityIssueKind, message: z.string() });
export type QualityIssue = z.infer<typeof QualityIssue>;
export const SlideQuality = z.object({
  /** 0-based index into spec.slides (as in validation errors: `slides[4]`). */
  index: z.number().int().min(0),
  /** 1-based numbers of the slides in the .pptx made from this spec slide (as PowerPoint numbers them). */
  output_slides: z.array(z.number().int().min(1)),
  issues: z.array(QualityIssue),
});
export type SlideQuality = z.infer<typeof SlideQuality>;
/**
 * Where the report's findings come from: 'rendered' when the slides were converted with LibreOffice
 * and every word's position read back, 'estimated' when they could not be (reason says why) and the
 * report rests on the layout's measurements alone. Absent in reports written before the check
 * existed, which are estimates too.
 */
export const ReportCheck = z.object({ mode: z.enum(['rendered', 'estimated']), reason: z.string().optional() });
export type ReportCheck = z.infer<typeof ReportCheck>;
export const QualityReport = z.object({
  slides: z.array(SlideQuality),
  summary: z.object({ slides_in: z.number().int(), slides_out: z.number().int(), issues: z.number().int() }),
  checked: ReportCheck.optional(),
});
export type QualityReport = z.infer<typeof QualityReport>;
