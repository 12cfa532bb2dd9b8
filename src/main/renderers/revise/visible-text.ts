// The text a reader sees in one paragraph, one atom per UTF-16 unit, each knowing the run and the
// element it comes from: Word splits words over runs for spelling marks, bookmarks and revision ids,
// so finds are matched on this text, never on the XML.
import type { Element, Node } from '@xmldom/xmldom';
import type { FieldState } from './part-scan';

export const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** Stands for something visible that is not text (a picture, a symbol, a note reference). */
export const OBJECT_CHAR = '\uFFFC';

export interface Atom {
  ch: string;
  /** The w:r holding it; null for a paragraph mark. */
  run: Element | null;
  /** The run's child it comes from (w:t, w:tab...). */
  node: Element | null;
  /** Offset inside a w:t's text. */
  offset: number;
  /** Why it may not be changed (inside a field, another reviewer's change...); null: free. */
  locked: string | null;
}

const SKIPPED = new Set(['w:pPr', 'w:rPr', 'w:del', 'w:moveFrom', 'w:sdtPr', 'w:sdtEndPr', 'w:customXmlPr', 'w:smartTagPr']);
const LOCKED_WRAPPERS: Record<string, string> = {
  'w:ins': 'inside another tracked change',
  'w:moveTo': 'inside another tracked change',
  'w:fldSimple': 'inside a field',
};
const OBJECTS: Record<string, string> = {
  'w:drawing': 'next to a picture',
  'w:pict': 'next to a picture',
  'w:object': 'next to an embedded object',
  'w:sym': 'at a symbol',
  'w:footnoteReference': 'at a footnote reference',
  'w:endnoteReference': 'at an endnote reference',
  'w:footnoteRef': 'at a footnote number',
  'w:endnoteRef': 'at an endnote number',
  'w:ruby': 'in phonetic guide text',
  'mc:AlternateContent': 'next to a drawing',
  'm:oMath': 'at an equation',
  'm:oMathPara': 'at an equation',
};

export function elementChildren(node: Node): Element[] {
  const out: Element[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) if (child.nodeType === 1) out.push(child as Element);
  return out;
}

/** The atoms of a paragraph; `fields` is the complex-field state at its start (updated as fields open and close). */
export function paragraphAtoms(paragraph: Element, openFields: readonly FieldState[]): Atom[] {
  const atoms: Atom[] = [];
  const fields = [...openFields];
  const fieldLock = (): string | null => (fields.length > 0 ? 'inside a field' : null);

  const visitRun = (run: Element, lock: string | null): void => {
    for (const child of elementChildren(run)) {
      const name = child.nodeName;
      if (name === 'w:fldChar') {
        const type = child.getAttributeNS(W_NS, 'fldCharType') || child.getAttribute('w:fldCharType');
        if (type === 'begin') fields.push('instruction');
        else if (type === 'separate' && fields.length > 0) fields[fields.length - 1] = 'result';
        else if (type === 'end') fields.pop();
        continue;
      }
      // A field's instruction is not shown; its result is, but Word recomputes it.
      if (fields.length > 0 && fields[fields.length - 1] === 'instruction') continue;
      const locked = lock ?? fieldLock();
      if (name === 'w:t') {
        const text = child.textContent ?? '';
        for (let i = 0; i < text.length; i++) atoms.push({ ch: text[i], run, node: child, offset: i, locked });
      } else if (name === 'w:tab' || name === 'w:ptab') atoms.push({ ch: '\t', run, node: child, offset: 0, locked });
      else if (name === 'w:br' || name === 'w:cr') atoms.push({ ch: '\n', run, node: child, offset: 0, locked });
      else if (name === 'w:noBreakHyphen') atoms.push({ ch: '-', run, node: child, offset: 0, locked });
      else if (OBJECTS[name]) atoms.push({ ch: OBJECT_CHAR, run, node: child, offset: 0, locked: OBJECTS[name] ?? 'at an object' });
    }
  };

  const visit = (node: Element, lock: string | null): void => {
    for (const child of elementChildren(node)) {
      const name = child.nodeName;
      if (SKIPPED.has(name)) continue;
      if (name === 'w:r') visitRun(child, lock);
      else if (OBJECTS[name]) atoms.push({ ch: OBJECT_CHAR, run: null, node: child, offset: 0, locked: OBJECTS[name] ?? 'at an object' });
      else if (child.firstChild) visit(child, lock ?? LOCKED_WRAPPERS[name] ?? null);
    }
  };
  visit(paragraph, null);
  return atoms;
}

/** The paragraph's own mark is already a tracked change (another reviewer inserted or deleted the break). */
export function markLock(paragraph: Element): string | null {
  const pPr = elementChildren(paragraph).find((el) => el.nodeName === 'w:pPr');
  const rPr = pPr && elementChildren(pPr).find((el) => el.nodeName === 'w:rPr');
  if (rPr && elementChildren(rPr).some((el) => ['w:ins', 'w:del', 'w:moveFrom', 'w:moveTo'].includes(el.nodeName))) {
    return 'at a paragraph break another tracked change made';
  }
  return null;
}
