// Draws a planned table page in the HTML preview: the plan's column widths, row heights, alignment
// and colours, so the preview wraps where the .pptx does.
import { TABLE_CELL_PAD_X_IN, TABLE_CELL_PAD_Y_IN } from '../../../../shared/specs/deck-geometry';
import type { TableElement } from '../../../../shared/specs/deck-plan';
import type { Theme } from '../../../../shared/specs/themes';
import { color, inches } from '../../../lib/deck-preview';
import { ThemedText } from '../ThemedText';

export interface TableElementViewProps {
  element: TableElement;
  theme: Theme;
  taskId: string;
}

export function TableElementView({ element: el, theme }: TableElementViewProps) {
  const pad = { padding: `${inches(el.cellPadY ?? TABLE_CELL_PAD_Y_IN)}px ${inches(TABLE_CELL_PAD_X_IN)}px` };
  // Rules drawn inside the cells (as the .pptx draws them on the cell edges): borders would add their
  // width to every row, and a table of many rows would run out of its planned box.
  const ruleColor = color(el.borderColor);
  const rules = (last: boolean) => ({ boxShadow: `inset 0 0.75px 0 ${ruleColor}${last ? `, inset 0 -0.75px 0 ${ruleColor}` : ''}` });
  const lineHeight = theme.lineHeight;
  return (
    <div className="slide-box" data-kind="table" data-id={el.id} style={{ left: inches(el.box.x), top: inches(el.box.y), width: inches(el.box.w), height: inches(el.box.h) }}>
      <table style={{ width: '100%', tableLayout: 'fixed', borderCollapse: 'collapse', fontSize: el.sizePt, lineHeight }}>
        <colgroup>
          {el.colWidths.map((w, i) => (
            <col key={i} style={{ width: inches(w) }} />
          ))}
        </colgroup>
        <thead>
          <tr style={{ height: inches(el.rowHeights[0] ?? 0.4), background: color(el.headerFill), color: color(el.headerColor) }}>
            {el.header.map((h, c) => (
              <th key={c} className="slide-table-cell" style={{ ...pad, textAlign: el.align[c] ?? 'left', verticalAlign: 'bottom', fontWeight: 700, ...rules(el.rows.length === 0) }}>
                <ThemedText theme={theme} role="body" text={h} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {el.rows.map((row, r) => (
            <tr key={r} style={{ height: inches(el.rowHeights[r + 1] ?? 0.4), color: color(el.textColor), background: el.zebraFill && r % 2 === 1 ? color(el.zebraFill) : undefined }}>
              {row.map((cell, c) => (
                <td key={c} className="slide-table-cell" style={{ ...pad, textAlign: el.align[c] ?? 'left', verticalAlign: 'top', ...rules(r === el.rows.length - 1), whiteSpace: 'pre-line' }}>
                  <ThemedText theme={theme} role="body" text={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
