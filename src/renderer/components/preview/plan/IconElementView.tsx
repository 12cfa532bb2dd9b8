// Draws a planned icon element in the HTML preview. (Placeholder until the icon view lands.)
import type { IconElement } from '../../../../shared/specs/deck-plan';
import type { Theme } from '../../../../shared/specs/themes';

export interface IconElementViewProps {
  element: IconElement;
  theme: Theme;
  taskId: string;
}

export function IconElementView({ element }: IconElementViewProps) {
  return <div className="slide-box" data-kind="icon" data-id={element.id} />;
}
