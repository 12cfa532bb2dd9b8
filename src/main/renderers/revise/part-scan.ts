// Finds the paragraphs of a WordprocessingML part in its raw text, so that only the paragraphs an
// edit changes are ever parsed and re-serialised: every other byte of the part stays as it was.
// A paragraph inside another (a text box's) belongs to its outer paragraph and is not a candidate.

export interface ParagraphSpan {
  /** Byte offsets in the part's text: `<w:p ...>` up to and including `</w:p>` (or the `<w:p/>`). */
  start: number;
  end: number;
  /**
   * Where the paragraph sits (the body, one table cell, one note...): an edit may join consecutive
   * paragraphs of one container only.
   */
  container: number;
  /** Complex fields open when the paragraph starts (a contents field spans many paragraphs), innermost last. */
  openFields: FieldState[];
}

export type FieldState = 'instruction' | 'result';

const TAG = /<(\/?)(w:p|w:tc|w:footnote|w:endnote|w:txbxContent|w:sdtContent|w:body|w:hdr|w:ftr|w:comment)(?=[\s>/])[^>]*?(\/?)>|w:fldCharType="(begin|separate|end)"/gu;

export function scanParagraphs(xml: string): ParagraphSpan[] {
  const spans: ParagraphSpan[] = [];
  const containers: number[] = [0];
  const fields: FieldState[] = [];
  let depth = 0;
  let open: { start: number; container: number; openFields: FieldState[] } | null = null;
  for (const m of xml.matchAll(TAG)) {
    const at = m.index;
    const fieldType = m[4];
    if (fieldType !== undefined) {
      if (fieldType === 'begin') fields.push('instruction');
      else if (fieldType === 'separate' && fields.length > 0) fields[fields.length - 1] = 'result';
      else if (fieldType === 'end') fields.pop();
      continue;
    }
    const closing = m[1] === '/';
    const name = m[2];
    const selfClosing = m[3] === '/';
    if (name === 'w:p') {
      if (selfClosing) {
        if (depth === 0) spans.push({ start: at, end: at + m[0].length, container: containers[containers.length - 1] ?? 0, openFields: [...fields] });
      } else if (!closing) {
        if (depth === 0) open = { start: at, container: containers[containers.length - 1] ?? 0, openFields: [...fields] };
        depth++;
      } else {
        depth--;
        if (depth === 0 && open) {
          spans.push({ ...open, end: at + m[0].length });
          open = null;
        }
      }
      continue;
    }
    if (selfClosing) continue;
    if (closing) containers.pop();
    else containers.push(at);
  }
  return spans;
}

/** The namespace declarations of the part's root element, for parsing one paragraph on its own. */
export function rootNamespaces(xml: string): string {
  const root = /<(?!\?)(?!!)[A-Za-z][\w.-]*:?[\w.-]*\b[^>]*>/u.exec(xml);
  if (!root) return '';
  return [...root[0].matchAll(/\sxmlns(?::[\w.-]+)?="[^"]*"/gu)].map((m) => m[0]).join('');
}
