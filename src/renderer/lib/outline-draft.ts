// The outline as the editor holds it: rows with a local key (new rows have no id until main assigns
// one), key points as one text block (a point per line), and conversion back to what the contract
// accepts, checked with the same schema main uses.
import type { DeckLayout } from '../../shared/specs/deck';
import { type DeckOutline, type OutlineRowInput, OutlineRowsInput } from '../../shared/specs/deck-outline';

export interface DraftSource {
  file: string;
  pages: string;
}

export interface DraftRow {
  /** Stable across edits and moves in this editor (dnd-kit's item id); never sent. */
  key: string;
  id?: string;
  title: string;
  layout: DeckLayout;
  /** One key point per line. */
  points: string;
  sources: DraftSource[];
}

let counter = 0;
const newKey = (): string => `row-${++counter}`;

export function draftFromOutline(outline: DeckOutline): DraftRow[] {
  return outline.slides.map((row) => ({
    key: newKey(),
    id: row.id,
    title: row.title,
    layout: row.layout,
    points: row.points.join('\n'),
    sources: row.sources.map((s) => ({ file: s.file, pages: s.pages ?? '' })),
  }));
}

/** An empty row for the person to fill in. */
export function newDraftRow(layout: DeckLayout = 'bullets'): DraftRow {
  return { key: newKey(), title: '', layout, points: '', sources: [] };
}

export function toRowInputs(rows: readonly DraftRow[]): OutlineRowInput[] {
  return rows.map((row) => ({
    ...(row.id ? { id: row.id } : {}),
    title: row.title.trim(),
    layout: row.layout,
    points: row.points
      .split('\n')
      .map((p) => p.trim())
      .filter((p) => p !== ''),
    sources: row.sources
      .filter((s) => s.file.trim() !== '')
      .map((s) => ({ file: s.file.trim(), ...(s.pages.trim() ? { pages: s.pages.trim() } : {}) })),
  }));
}

export type DraftCheck = { ok: true; rows: OutlineRowInput[] } | { ok: false; byRow: Map<number, string[]>; general: string[] };

/** The draft checked with the contract's schema; problems grouped by row index for the editor. */
export function checkDraft(rows: readonly DraftRow[]): DraftCheck {
  const inputs = toRowInputs(rows);
  const parsed = OutlineRowsInput.safeParse(inputs);
  if (parsed.success) return { ok: true, rows: inputs };
  const byRow = new Map<number, string[]>();
  const general: string[] = [];
  for (const issue of parsed.error.issues) {
    const [index, ...rest] = issue.path;
    if (typeof index !== 'number') {
      general.push(issue.message);
      continue;
    }
    const where = rest.map(String).join('.');
    const list = byRow.get(index) ?? [];
    list.push(where ? `${where}: ${issue.message}` : issue.message);
    byRow.set(index, list);
  }
  return { ok: false, byRow, general };
}
