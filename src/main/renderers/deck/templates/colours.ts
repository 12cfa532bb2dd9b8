// DrawingML colours as a template writes them (srgbClr, sysClr, schemeClr through the master's
// colour map, preset names) resolved to hex, with the luminance modifiers themes use most.
import type { Element } from '@xmldom/xmldom';
import { NS } from './ooxml';

export type ColourScheme = Record<string, string>;
export type ColourMap = Record<string, string>;

export const SCHEME_SLOTS = ['dk1', 'lt1', 'dk2', 'lt2', 'accent1', 'accent2', 'accent3', 'accent4', 'accent5', 'accent6', 'hlink', 'folHlink'] as const;

/** PowerPoint's default master colour map (bg1 is the light slot, tx1 the dark one). */
export const DEFAULT_COLOUR_MAP: ColourMap = { bg1: 'lt1', tx1: 'dk1', bg2: 'lt2', tx2: 'dk2' };

const PRESET: Record<string, string> = { black: '000000', white: 'FFFFFF', red: 'FF0000', green: '008000', blue: '0000FF', yellow: 'FFFF00', gray: '808080', grey: '808080' };

const HEX = /^[0-9A-Fa-f]{6}$/;

/** The hex of the first colour element inside `el` (or `el` itself), or null. */
export function resolveColour(el: Element | undefined, scheme: ColourScheme, map: ColourMap): string | null {
  if (!el) return null;
  const colourEl = isColourElement(el) ? el : findColourChild(el);
  if (!colourEl) return null;
  let hex: string | null = null;
  const val = colourEl.getAttribute('val') ?? '';
  switch (colourEl.localName) {
    case 'srgbClr':
      hex = HEX.test(val) ? val.toUpperCase() : null;
      break;
    case 'sysClr': {
      const last = colourEl.getAttribute('lastClr') ?? '';
      hex = HEX.test(last) ? last.toUpperCase() : val === 'window' ? 'FFFFFF' : '000000';
      break;
    }
    case 'schemeClr': {
      const slot = map[val] ?? DEFAULT_COLOUR_MAP[val] ?? val;
      hex = scheme[slot] ?? null;
      break;
    }
    case 'prstClr':
      hex = PRESET[val] ?? null;
      break;
  }
  return hex ? applyModifiers(hex, colourEl) : null;
}

const COLOUR_ELEMENTS = new Set(['srgbClr', 'sysClr', 'schemeClr', 'prstClr', 'scrgbClr', 'hslClr']);

function isColourElement(el: Element): boolean {
  return el.namespaceURI === NS.a && COLOUR_ELEMENTS.has(el.localName ?? '');
}

function findColourChild(el: Element): Element | undefined {
  for (const name of COLOUR_ELEMENTS) {
    const found = el.getElementsByTagNameNS(NS.a, name)[0];
    if (found) return found;
  }
  return undefined;
}

/** lumMod/lumOff (how themes derive "Background 1, darker 5%") applied in HSL; tint and shade (how table styles lighten an accent) toward white or black. */
function applyModifiers(hex: string, el: Element): string {
  let lumMod = 1;
  let lumOff = 0;
  let tint = 1;
  let shade = 1;
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const child = n as Element;
    const v = Number(child.getAttribute('val') ?? 'NaN') / 100000;
    if (!Number.isFinite(v)) continue;
    if (child.localName === 'lumMod') lumMod = v;
    if (child.localName === 'lumOff') lumOff = v;
    if (child.localName === 'tint') tint = Math.min(1, Math.max(0, v));
    if (child.localName === 'shade') shade = Math.min(1, Math.max(0, v));
  }
  let out = hex;
  if (tint !== 1) out = mix('FFFFFF', out, tint);
  if (shade !== 1) out = mix('000000', out, shade);
  if (lumMod === 1 && lumOff === 0) return out;
  const [h, s, l] = toHsl(out);
  return fromHsl(h, s, Math.min(1, Math.max(0, l * lumMod + lumOff)));
}

function toHsl(hex: string): [number, number, number] {
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [h / 6, s, l];
}

function fromHsl(h: number, s: number, l: number): string {
  const hue = (p: number, q: number, t: number): number => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (u < 1 / 6) return p + (q - p) * 6 * u;
    if (u < 1 / 2) return q;
    if (u < 2 / 3) return p + (q - p) * (2 / 3 - u) * 6;
    return p;
  };
  let r = l;
  let g = l;
  let b = l;
  if (s > 0) {
    const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
    const p = 2 * l - q;
    r = hue(p, q, h + 1 / 3);
    g = hue(p, q, h);
    b = hue(p, q, h - 1 / 3);
  }
  return [r, g, b].map((c) => Math.round(c * 255).toString(16).padStart(2, '0')).join('').toUpperCase();
}

/** `a` moved toward `b` by `t` (0..1), per channel. */
export function mix(a: string, b: string, t: number): string {
  return [0, 2, 4]
    .map((i) => {
      const x = parseInt(a.slice(i, i + 2), 16);
      const y = parseInt(b.slice(i, i + 2), 16);
      return Math.round(x + (y - x) * t).toString(16).padStart(2, '0');
    })
    .join('')
    .toUpperCase();
}
