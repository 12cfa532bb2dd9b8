// The bullets a template gives body text, per level, through the same chain as its text style (the
// master's body text style, the master's body placeholder, the layout's body placeholder): the
// character and where the text starts. Text in the body placeholder is planned with that margin and
// leaves both to the template (inherit.ts), so a brand's bullets and indents are the deck's.
import type { Document, Element } from '@xmldom/xmldom';
import { type TemplateBullet } from '../../../../shared/specs/themes';
import { directChildren, first, NS } from './ooxml';
import { bodyPlaceholderOf, masterPlaceholder, placeholderOf } from './paint';

const EMU_PER_PT = 12700;
/** Folio sets three levels of body text at most (bullets and sub-bullets, and one more). */
const LEVELS = 3;

function applyBullet(base: TemplateBullet | undefined, lvl: Element | undefined): TemplateBullet | undefined {
  if (!lvl) return base;
  const out: TemplateBullet = { ...(base ?? { char: null, marginPt: 0 }) };
  const marL = Number(lvl.getAttribute('marL') ?? NaN);
  if (Number.isFinite(marL) && marL >= 0) out.marginPt = Math.min(600, marL / EMU_PER_PT);
  if (directChildren(lvl, NS.a, 'buNone')[0] || directChildren(lvl, NS.a, 'buAutoNum')[0]) out.char = null;
  const char = directChildren(lvl, NS.a, 'buChar')[0]?.getAttribute('char');
  if (char) out.char = Array.from(char).slice(0, 1).join('');
  return out;
}

const listStyleOf = (sp: Element | undefined): Element | undefined => {
  const txBody = sp ? directChildren(sp, NS.p, 'txBody')[0] : undefined;
  return txBody ? directChildren(txBody, NS.a, 'lstStyle')[0] : undefined;
};

/** Bullets of text in `layout`'s body placeholder, level 1 first; empty when nothing in the chain sets one. */
export function bodyBulletsOf(master: Document, layout: Document | undefined): TemplateBullet[] {
  const txStyles = first(master, NS.p, 'txStyles');
  const bodyStyle = txStyles ? directChildren(txStyles, NS.p, 'bodyStyle')[0] : undefined;
  const sp = bodyPlaceholderOf(layout);
  const chain = [bodyStyle, listStyleOf(masterPlaceholder(master, sp ? placeholderOf(sp) : undefined)), listStyleOf(sp)];
  const levels: (TemplateBullet | undefined)[] = [];
  for (let n = 1; n <= LEVELS; n++) {
    levels.push(chain.reduce<TemplateBullet | undefined>((b, list) => applyBullet(b, list ? directChildren(list, NS.a, `lvl${n}pPr`)[0] : undefined), undefined));
  }
  const last = levels.map((l) => l !== undefined).lastIndexOf(true);
  return levels.slice(0, last + 1).map((l) => l ?? { char: null, marginPt: 0 });
}
