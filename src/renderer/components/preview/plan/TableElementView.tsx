// Draws a planned table element in the HTML preview. (Placeholder until the table view lands.)
import type { TableElement } from '../../../../shared/specs/deck-plan';
import type { Theme } from '../../../../shared/specs/themes';

export interface TableElementViewProps {
  element: TableElement;
  theme: Theme;
  taskId: string;
}

export function TableElementView({ element }: TableElementViewProps) {
  return <div className="slide-box" data-kind="table" data-id={element.id} />;
}
