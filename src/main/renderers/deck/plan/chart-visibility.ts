// Finds what a planned chart draws but nobody can see: a series whose bars are too short to show, a
// line or area lying exactly under one drawn after it, a series coloured like the background, a pie
// slice of nothing. Each leaves a legend entry naming nothing on the slide. The plan holds the truth
// here (values, scale, colours, drawing order); the rendered read-back (verify/) reads words, not
// shapes, so it cannot tell a drawn bar from an empty band.
import { contrastRatio } from '../../../../shared/specs/themes';
import { type ChartElement } from '../../../../shared/specs/deck-plan';

/** A bar, or a gap between two lines, under this share of the value axis is not seen on a slide. */
const MIN_VISIBLE_SHARE = 0.005;
/** A fill this close to the background in contrast is not told apart from it. */
const MIN_FILL_CONTRAST = 1.1;

const quote = (name: string): string => `"${name}"`;

function axisSpan(el: ChartElement): number {
  if (el.valueAxis) return el.valueAxis.max - el.valueAxis.min || 1;
  const values = el.series.flatMap((s) => s.values);
  return Math.max(0, ...values) - Math.min(0, ...values) || 1;
}

/** The fills a series is drawn in: its colour, or one per point when the plan gives them. */
function fillsOf(series: ChartElement['series'][number]): string[] {
  return series.pointColors && series.pointColors.length > 0 ? series.pointColors : [series.color];
}

function roundChartMessages(el: ChartElement, background: string): string[] {
  const only = el.series[0];
  if (!only) return [];
  const total = only.values.reduce((sum, v) => sum + Math.max(0, v), 0) || 1;
  return el.categories.flatMap((name, i) => {
    const share = Math.max(0, only.values[i] ?? 0) / total;
    const fill = only.pointColors?.[i] ?? only.color;
    if (share < MIN_VISIBLE_SHARE) {
      return [`slice ${quote(name)} is ${(share * 100).toFixed(1)}% of the ${el.type}: it is not drawn visibly, but the legend names it; leave it out or group small slices as "other"`];
    }
    if (contrastRatio(fill, background) < MIN_FILL_CONTRAST) {
      return [`slice ${quote(name)} is drawn in #${fill}, which cannot be told from the #${background} background; the legend names a slice nobody sees`];
    }
    return [];
  });
}

/**
 * One message per series (or pie slice) that is drawn but invisible on the slide, saying why and
 * what to do; none when every legend entry names something a reader can see.
 */
export function invisibleSeriesMessages(el: ChartElement, background: string): string[] {
  if (el.type === 'pie' || el.type === 'doughnut') return roundChartMessages(el, background);
  const tolerance = axisSpan(el) * MIN_VISIBLE_SHARE;
  const bars = el.type === 'bar' || el.type === 'column';
  const messages: string[] = [];
  el.series.forEach((series, s) => {
    const name = quote(series.name);
    if (fillsOf(series).every((fill) => contrastRatio(fill, background) < MIN_FILL_CONTRAST)) {
      messages.push(`series ${name} is drawn in #${series.color}, which cannot be told from the #${background} background; its legend entry names nothing visible`);
      return;
    }
    if (bars) {
      if (series.values.every((v) => Math.abs(v) < tolerance)) {
        const largest = Math.max(...series.values.map(Math.abs));
        messages.push(`series ${name} is drawn but cannot be seen: its largest value (${largest}) is under ${MIN_VISIBLE_SHARE * 100}% of the value axis, so its bars have no length and its legend entry names nothing visible; chart it on its own, or in other units`);
      }
      return;
    }
    // Lines, areas and scatter points are drawn in series order: a later series covers an earlier one.
    const cover = el.series.slice(s + 1).find((later) => later.values.length === series.values.length && later.values.every((v, i) => Math.abs(v - (series.values[i] ?? v)) < tolerance));
    if (cover) {
      messages.push(`series ${name} is drawn but cannot be seen: every point lies under ${quote(cover.name)}, drawn after it, so its legend entry names nothing visible; check the data, or say in the title that the two are the same`);
    }
  });
  return messages;
}
