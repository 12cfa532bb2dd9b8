// The fallback: the width tables of ../width-table.ts behind the same interface, for faces that are not
// installed (and for tests that must not depend on the machine's fonts).
import { charWidthEm } from '../width-table';
import { type MeasureStyle, type MetricsSource } from '../text-measurer';
import { ScriptMeasurer, type Script } from './script-measurer';

/** The tables have no bold column; bold Latin faces run about 6% wider than regular. */
export const TABLE_BOLD_FACTOR = 1.06;

export function tableCharEm(ch: string, bold: boolean): number {
  return charWidthEm(ch) * (bold ? TABLE_BOLD_FACTOR : 1);
}

export class TableMeasurer extends ScriptMeasurer {
  constructor(private readonly emoji: () => string | null = () => null) {
    super();
  }

  protected charEm(ch: string, _script: Script, style: MeasureStyle): number {
    return tableCharEm(ch, style.bold ?? false);
  }

  sourceOf(face: string): MetricsSource {
    return { kind: 'table', face };
  }

  emojiFace(): string | null {
    return this.emoji();
  }
}

export const tableMeasurer: TableMeasurer = new TableMeasurer();
