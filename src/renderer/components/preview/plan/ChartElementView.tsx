// Draws a planned chart element in the HTML preview. (Placeholder until the chart view lands.)
import type { ChartElement } from '../../../../shared/specs/deck-plan';
import type { Theme } from '../../../../shared/specs/themes';

export interface ChartElementViewProps {
  element: ChartElement;
  theme: Theme;
  taskId: string;
}

export function ChartElementView({ element }: ChartElementViewProps) {
  return <div className="slide-box" data-kind="chart" data-id={element.id} />;
}
