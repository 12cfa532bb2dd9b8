// The numbers Word prints before numbered paragraphs — 一、（一）1. on headings, ① on list items — worked
// out from the numbering and styles parts as Word counts them. A numbered paragraph's text holds no
// number, so without this a preview of the document loses every one of them.
import { DOMParser, type Element, type Node } from '@xmldom/xmldom';
import { chineseCounting, formatNumber } from '../../../shared/specs/document';
import { W_NS } from './visible-text';

/** Word's levels: ilvl 0–8. */
const LEVELS = 9;
/** A style chain longer than this is malformed (or circular). */
const MAX_BASED_ON = 20;

interface Level {
  start: number;
  format: string;
  text: string;
  suffix: string;
  /** isLgl: the other levels' numbers in this level's text are written as decimals. */
  legal: boolean;
  /** The paragraph style linked to this level (a Heading style numbered by the list). */
  style: string | null;
}

interface ListInstance {
  abstractId: string;
  /** Per level, a lvlOverride's start (a list that restarts) and its own level definition, if any. */
  overrides: Map<number, { start: number | null; level: Level | null }>;
}

interface StyleNumbering {
  numId: string | null;
  ilvl: number | null;
  basedOn: string | null;
}

const parse = (xml: string) => new DOMParser({ onError: () => undefined }).parseFromString(xml, 'text/xml');

function children(node: Node, name?: string): Element[] {
  const out: Element[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 1 && (name === undefined || (c as Element).localName === name)) out.push(c as Element);
  }
  return out;
}

const child = (node: Node, name: string): Element | undefined => children(node, name)[0];

function val(el: Element | undefined): string | null {
  if (!el) return null;
  return el.getAttributeNS(W_NS, 'val') || el.getAttribute('w:val') || null;
}

function intVal(el: Element | undefined): number | null {
  const n = Number.parseInt(val(el) ?? '', 10);
  return Number.isFinite(n) ? n : null;
}

function attr(el: Element, name: string): string | null {
  return el.getAttributeNS(W_NS, name) || el.getAttribute(`w:${name}`) || null;
}

function readLevel(lvl: Element): Level {
  const legal = child(lvl, 'isLgl');
  return {
    start: intVal(child(lvl, 'start')) ?? 0,
    format: val(child(lvl, 'numFmt')) ?? 'decimal',
    text: val(child(lvl, 'lvlText')) ?? '',
    suffix: val(child(lvl, 'suff')) ?? 'tab',
    legal: legal !== undefined && val(legal) !== '0' && val(legal) !== 'false',
    style: val(child(lvl, 'pStyle')),
  };
}

const TEN_STEMS = '甲乙丙丁戊己庚辛壬癸';
const LEGAL_DIGITS = '零壹贰叁肆伍陆柒捌玖';

function romanUpper(n: number): string {
  return formatNumber('lowerRoman', n).toUpperCase();
}

/** A counter as Word writes it in a `w:numFmt`; formats Folio does not know are written as decimals. */
export function formatCounter(format: string, n: number): string {
  switch (format) {
    case 'decimal':
    case 'chineseCounting':
    case 'decimalEnclosedCircle':
    case 'lowerLetter':
    case 'lowerRoman':
      return formatNumber(format, n);
    case 'upperLetter':
      return formatNumber('lowerLetter', n).toUpperCase();
    case 'upperRoman':
      return romanUpper(n);
    case 'decimalZero':
      return n < 10 ? `0${n}` : String(n);
    case 'chineseCountingThousand':
    case 'japaneseCounting':
    case 'taiwaneseCounting':
      return chineseCounting(n);
    case 'ideographTraditional':
      return n >= 1 && n <= 10 ? (TEN_STEMS[n - 1] ?? String(n)) : String(n);
    case 'chineseLegalSimplified':
      return n >= 0 && n <= 9 ? (LEGAL_DIGITS[n] ?? String(n)) : String(n);
    case 'decimalEnclosedParen':
      return n >= 1 && n <= 20 ? String.fromCodePoint(0x2474 + n - 1) : `(${n})`;
    case 'decimalFullWidth':
      return [...String(n)].map((d) => String.fromCodePoint(0xff10 + Number(d))).join('');
    default:
      return String(n);
  }
}

function suffixText(suffix: string): string {
  if (suffix === 'nothing') return '';
  // A tab in Word; one space is what a line of preview text can show of it.
  return ' ';
}

/**
 * Reads a document's numbering and styles and returns the label of each paragraph, to be asked in
 * reading order (the counters advance as Word's do): `一、`, `（一）`, `1. `, `① `, a bullet, or null
 * for a paragraph without a number.
 */
export function listNumbering(numberingXml: string | null, stylesXml: string | null): (p: Element) => string | null {
  const abstracts = new Map<string, (Level | undefined)[]>();
  const instances = new Map<string, ListInstance>();
  if (numberingXml) {
    const root = parse(numberingXml).documentElement;
    if (root) {
      for (const abstract of children(root, 'abstractNum')) {
        const levels: (Level | undefined)[] = [];
        for (const lvl of children(abstract, 'lvl')) {
          const ilvl = Number.parseInt(attr(lvl, 'ilvl') ?? '', 10);
          if (ilvl >= 0 && ilvl < LEVELS) levels[ilvl] = readLevel(lvl);
        }
        abstracts.set(attr(abstract, 'abstractNumId') ?? '', levels);
      }
      for (const num of children(root, 'num')) {
        const overrides: ListInstance['overrides'] = new Map();
        for (const o of children(num, 'lvlOverride')) {
          const ilvl = Number.parseInt(attr(o, 'ilvl') ?? '', 10);
          const lvl = child(o, 'lvl');
          if (ilvl >= 0 && ilvl < LEVELS) overrides.set(ilvl, { start: intVal(child(o, 'startOverride')), level: lvl ? readLevel(lvl) : null });
        }
        instances.set(attr(num, 'numId') ?? '', { abstractId: val(child(num, 'abstractNumId')) ?? '', overrides });
      }
    }
  }
  const styles = new Map<string, StyleNumbering>();
  if (stylesXml) {
    const root = parse(stylesXml).documentElement;
    for (const style of root ? children(root, 'style') : []) {
      const numPr = child(child(style, 'pPr') ?? style, 'numPr');
      styles.set(attr(style, 'styleId') ?? '', {
        numId: numPr ? val(child(numPr, 'numId')) : null,
        ilvl: numPr ? intVal(child(numPr, 'ilvl')) : null,
        basedOn: val(child(style, 'basedOn')),
      });
    }
  }

  /** The style's list (its own or inherited) and the level a paragraph of it is at. */
  const fromStyle = (styleId: string): { numId: string; ilvl: number | null } | null => {
    let id: string | null = styleId;
    for (let depth = 0; id !== null && depth < MAX_BASED_ON; depth++) {
      const style = styles.get(id);
      if (!style) return null;
      if (style.numId !== null) return { numId: style.numId, ilvl: style.ilvl };
      id = style.basedOn;
    }
    return null;
  };

  const counters = new Map<string, (number | undefined)[]>();
  const started = new Set<string>();

  const levelOf = (instance: ListInstance, ilvl: number): Level | undefined => instance.overrides.get(ilvl)?.level ?? abstracts.get(instance.abstractId)?.[ilvl];

  return (p: Element): string | null => {
    const pPr = child(p, 'pPr');
    const direct = pPr ? child(pPr, 'numPr') : undefined;
    const styleId = pPr ? val(child(pPr, 'pStyle')) : null;
    let numId = direct ? val(child(direct, 'numId')) : null;
    let ilvl = direct ? intVal(child(direct, 'ilvl')) : null;
    if (numId === null && styleId !== null) {
      const inherited = fromStyle(styleId);
      if (inherited) {
        numId = inherited.numId;
        ilvl ??= inherited.ilvl;
      }
    }
    if (numId === null || numId === '0') return null;
    const instance = instances.get(numId);
    if (!instance) return null;
    // A style numbered by the list without a level: the level that names the style.
    if (ilvl === null && styleId !== null) {
      const linked = (abstracts.get(instance.abstractId) ?? []).findIndex((l) => l?.style === styleId);
      ilvl = linked >= 0 ? linked : 0;
    }
    const at = Math.min(Math.max(ilvl ?? 0, 0), LEVELS - 1);
    const level = levelOf(instance, at);
    if (!level) return null;

    // Lists sharing an abstract definition count on together; an override's start restarts them where first used.
    const count = counters.get(instance.abstractId) ?? [];
    if (!started.has(numId)) {
      started.add(numId);
      for (const [i, o] of instance.overrides) if (o.start !== null) count[i] = o.start - 1;
    }
    count[at] = (count[at] ?? level.start - 1) + 1;
    for (let deeper = at + 1; deeper < LEVELS; deeper++) count[deeper] = undefined;
    counters.set(instance.abstractId, count);

    if (level.format === 'none') return null;
    if (level.format === 'bullet') return level.text === '' ? null : `${level.text}${suffixText(level.suffix)}`;
    const text = level.text.replace(/%([1-9])/gu, (_, k: string) => {
      const i = Number(k) - 1;
      const of = levelOf(instance, i);
      const n = count[i] ?? of?.start ?? 1;
      return formatCounter(level.legal && i !== at ? 'decimal' : (of?.format ?? 'decimal'), n);
    });
    return text === '' ? null : `${text}${suffixText(level.suffix)}`;
  };
}
