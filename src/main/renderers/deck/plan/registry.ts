// One planner per layout. The type makes a layout without a planner a compile error.
import { type PlannerRegistry } from './context';
import { planAgenda, planBullets, planTwoColumn } from './layouts-body';
import { planClosing, planQuote, planSection, planTitle } from './layouts-hero';
import { planCards, planComparison, planProcess, planStat } from './layouts-visual';
import { planTimeline } from './layouts-timeline';
import { planChartSlide, planFullImage, planImage, planImageText, planTableSlide } from './layouts-media';

export const PLANNERS: PlannerRegistry = {
  title: planTitle,
  section: planSection,
  bullets: planBullets,
  two_column: planTwoColumn,
  image: planImage,
  chart: planChartSlide,
  table: planTableSlide,
  quote: planQuote,
  closing: planClosing,
  agenda: planAgenda,
  image_text: planImageText,
  full_image: planFullImage,
  stat: planStat,
  cards: planCards,
  timeline: planTimeline,
  process: planProcess,
  comparison: planComparison,
};
