// Draws a planned icon in the HTML preview from the same Lucide node the .pptx embeds as SVG.
import { createElement } from 'react';
import type { IconElement } from '../../../../shared/specs/deck-plan';
import { iconSvgAttributes } from '../../../../shared/specs/icon-svg';
import type { Theme } from '../../../../shared/specs/themes';
import { inches } from '../../../lib/deck-preview';
import { useIconNode } from '../../../lib/lucide-icons';

export interface IconElementViewProps {
  element: IconElement;
  theme: Theme;
  taskId: string;
}

/** SVG attribute names as React wants them (stroke-width → strokeWidth). */
function reactAttrs(attrs: Record<string, string | number>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()), v]));
}

export function IconElementView({ element: el }: IconElementViewProps) {
  const node = useIconNode(el.name);
  const side = Math.min(el.box.w, el.box.h);
  const { xmlns: _xmlns, ...svgAttrs } = iconSvgAttributes(el.color);
  return (
    <div
      className="slide-box"
      data-kind="icon"
      data-id={el.id}
      style={{ left: inches(el.box.x + (el.box.w - side) / 2), top: inches(el.box.y + (el.box.h - side) / 2), width: inches(side), height: inches(side) }}
    >
      {node && (
        <svg {...reactAttrs(svgAttrs)} width={inches(side)} height={inches(side)} role="img" aria-label={el.name}>
          {node.map(([tag, attrs], i) => createElement(tag, { key: i, ...reactAttrs(attrs) }))}
        </svg>
      )}
    </div>
  );
}
