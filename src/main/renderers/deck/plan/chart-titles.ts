// A chart's three titles (the chart's own, the x axis's, the y axis's) as LibreOffice lays them out. LibreOffice 7.4
// gives the chart title and the x-axis title at most 80% of the chart's width and the y-axis title, turned a quarter,
// at most 80% of the chart's height; a longer title wraps, and every extra line is taken from the plot (read back
// from its PDFs: chart-titles-libreoffice.test.ts). The planner measures them with the same rule, so it knows which
// titles wrap before anything is drawn.
import { CHART_TITLE_STEP_PT } from '../../../../shared/specs/chart-style';
import { type PlanBox } from '../../../../shared/specs/deck-plan';

/** The share of the chart's width (title, x-axis title) or height (y-axis title) a title may take on one line. */
const TITLE_WRAP_SHARE = 0.8;
/**
 * The planner's room is a little short of LibreOffice's: a title that fills the room to within a few points is
 * planned as wrapping (a line one character under 80% wrapped in LibreOffice's PDF), never the other way round.
 */
const TITLE_ROOM_MARGIN = 0.985;

export type ChartTitleKey = 'title' | 'xTitle' | 'yTitle';
export type ChartTitles = Partial<Record<ChartTitleKey, string>>;

export const TITLE_NAMES: Record<ChartTitleKey, { en: string; along: 'width' | 'height' }> = {
  title: { en: 'chart title', along: 'width' },
  xTitle: { en: 'x-axis title', along: 'width' },
  yTitle: { en: 'y-axis title', along: 'height' },
};

/** The size a title is drawn at, for the chart's text size: the chart title a step larger, axis titles as the labels. */
export function titleSizePt(key: ChartTitleKey, chartSizePt: number): number {
  return key === 'title' ? chartSizePt + CHART_TITLE_STEP_PT : chartSizePt;
}

/** The length, in points, one line of the title may take in a chart of this box. */
export function titleRoomPt(key: ChartTitleKey, box: PlanBox): number {
  const side = TITLE_NAMES[key].along === 'width' ? box.w : box.h;
  return side * 72 * TITLE_WRAP_SHARE * TITLE_ROOM_MARGIN;
}

/** Breaks a title into the lines it is drawn on: (text, size in points, room in points) → lines. */
export type TitleWrap = (text: string, sizePt: number, roomPt: number) => string[];

export interface WrappedTitle {
  key: ChartTitleKey;
  text: string;
  sizePt: number;
  roomPt: number;
  lines: string[];
}

/** Each title the chart has, broken into the lines LibreOffice draws it on, at the chart's text size. */
export function wrappedTitles(titles: ChartTitles, box: PlanBox, chartSizePt: number, wrap: TitleWrap): WrappedTitle[] {
  const keys: ChartTitleKey[] = ['title', 'xTitle', 'yTitle'];
  return keys.flatMap((key) => {
    const text = titles[key];
    if (!text) return [];
    const sizePt = titleSizePt(key, chartSizePt);
    const roomPt = titleRoomPt(key, box);
    return [{ key, text, sizePt, roomPt, lines: wrap(text, sizePt, roomPt) }];
  });
}

/**
 * What the report says of a title LibreOffice draws on more than one line (what the rendered slide shows): how many
 * lines, not where they break, since LibreOffice may break a Chinese word the planner keeps whole.
 */
export function wrappedTitleMessage(t: WrappedTitle): string {
  const name = TITLE_NAMES[t.key];
  const lost = Math.round((t.lines.length - 1) * t.sizePt * 1.2);
  return (
    `the ${name.en} "${t.text}" is longer than one line of the chart allows (${Math.round(t.roomPt)} pt, 80% of its ${name.along}, at ${t.sizePt} pt): ` +
    `it is drawn on ${t.lines.length} lines, taking about ${lost} pt from the plot's ${t.key === 'yTitle' ? 'width' : 'height'}; shorten it`
  );
}
