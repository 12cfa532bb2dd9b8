// A table cell's text as a Chinese document prints it, for choosing column widths: typed spaces beside Chinese
// dropped, digit groups joined, and each citation written as its number, a superscript in GB/T 7714.
import { CITATION, citationLabel, citedKeys } from '../../../shared/specs/document-citations';
import { type CellText } from './cell-breaks';
import { type CitationState } from './context';
import { joinDigitGroups } from './digit-groups';
import { typesetSpacesBetween } from './text-metrics';

/** The cell's printed text; `superscripts` are the citation numbers set small and raised (UTF-16 offsets). */
export function printedCell(raw: string, bold: boolean, citations: CitationState | undefined): CellText {
  const plain = (piece: string, before: string, after: string): string => joinDigitGroups(typesetSpacesBetween(piece, before, after));
  if (!citations) return { text: plain(raw, '', ''), bold };
  const matches = [...raw.matchAll(CITATION)];
  const labels = matches.map((match) => citationLabel(citedKeys(match).map((key) => citations.numbers.get(key) ?? null), citations.look));
  let text = '';
  let at = 0;
  const superscripts: [number, number][] = [];
  matches.forEach((match, i) => {
    const label = labels[i] ?? '';
    const index = match.index ?? 0;
    text += plain(raw.slice(at, index), text.at(-1) ?? '', label[0] ?? '');
    if (citations.look.superscript) superscripts.push([text.length, text.length + label.length]);
    text += label;
    at = index + match[0].length;
  });
  text += plain(raw.slice(at), text.at(-1) ?? '', '');
  return superscripts.length > 0 ? { text, bold, superscripts } : { text, bold };
}
