// A table cell's text as a document prints it, for choosing column widths: typed spaces beside Chinese dropped,
// digit groups joined, each citation written as its number (a superscript in GB/T 7714) and each cross-reference as
// its caption's label ("表 1").
import { CITATION, citationLabel, citedKeys } from '../../../shared/specs/document-citations';
import { CROSS_REFERENCE, referencedIds } from '../../../shared/specs/document-captions';
import { type CellText, SUPERSCRIPT_SIZE } from './cell-breaks';
import { type CitationState } from './context';
import { joinDigitGroups } from './digit-groups';
import { emWidth, typesetSpacesBetween } from './text-metrics';

/** What a cross-reference prints as: each id's caption label ("表 1", "表 ??" for an unknown id), and what joins several. */
export type CrossReferences = { label: (id: string) => string; separator: string };

type Printed = { index: number; length: number; label: string; raised: boolean };

/** The citations and cross-references in `raw`, in order, each with what it prints as. */
function printedMarks(raw: string, citations: CitationState | undefined, references: CrossReferences | undefined): Printed[] {
  const marks: Printed[] = [];
  if (references) {
    for (const match of raw.matchAll(CROSS_REFERENCE)) {
      marks.push({ index: match.index ?? 0, length: match[0].length, label: referencedIds(match).map(references.label).join(references.separator), raised: false });
    }
  }
  if (citations) {
    for (const match of raw.matchAll(CITATION)) {
      const label = citationLabel(citedKeys(match).map((key) => citations.numbers.get(key) ?? null), citations.look);
      marks.push({ index: match.index ?? 0, length: match[0].length, label, raised: citations.look.superscript });
    }
  }
  return marks.sort((a, b) => a.index - b.index);
}

/** The cell's printed text; `superscripts` are the citation numbers set small and raised (UTF-16 offsets). */
export function printedCell(raw: string, bold: boolean, citations: CitationState | undefined, references?: CrossReferences): CellText {
  const plain = (piece: string, before: string, after: string): string => joinDigitGroups(typesetSpacesBetween(piece, before, after));
  let text = '';
  let at = 0;
  const superscripts: [number, number][] = [];
  for (const mark of printedMarks(raw, citations, references)) {
    if (mark.index < at) continue;
    text += plain(raw.slice(at, mark.index), text.at(-1) ?? '', mark.label[0] ?? '');
    if (mark.raised) superscripts.push([text.length, text.length + mark.label.length]);
    text += mark.label;
    at = mark.index + mark.length;
  }
  text += plain(raw.slice(at), text.at(-1) ?? '', '');
  return superscripts.length > 0 ? { text, bold, superscripts } : { text, bold };
}

/** How wide a printed cell sets in ems of its size (text-metrics.ts's count), its superscripts at their smaller size. */
export function printedEms(cell: CellText): number {
  let ems = emWidth(cell.text);
  for (const [start, end] of cell.superscripts ?? []) ems -= emWidth(cell.text.slice(start, end)) * (1 - SUPERSCRIPT_SIZE);
  return ems;
}
