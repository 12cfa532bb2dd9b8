// One Chinese spacing style. The zh-CN catalogs type no space between Chinese and Latin letters or
// digits; on the page, CSS `text-autospace` draws that gap. Text that leaves the page's drawn text
// (a terminal, a tooltip, an aria label) gets the gap typed in here, at the same boundaries the
// browser uses (ideograph beside a letter or digit of another script). A value put into a message
// (a file name, a model, a path such as "work/数据.csv") is never altered: only the template's own
// boundaries and the boundaries between the template and a value are spaced.

const IDEOGRAPH = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}`;
/** A letter or digit of a non-ideographic script, as `text-autospace` counts them (full-width forms excluded). */
const ALPHANUMERIC = String.raw`[\p{L}\p{Nd}](?<![${IDEOGRAPH}\p{Script=Hangul}\uff00-\uffef])`;

/** Sources for the catalog check: a character on either side of the gap. */
export const gapSides = { ideograph: `[${IDEOGRAPH}]`, alphanumeric: ALPHANUMERIC } as const;

const ideograph = new RegExp(`^[${IDEOGRAPH}]$`, 'u');
const alphanumeric = new RegExp(`^${ALPHANUMERIC}$`, 'u');

/** Whether a typesetter puts a gap between these two characters. */
export function needsGap(before: string, after: string): boolean {
  return (ideograph.test(before) && alphanumeric.test(after)) || (alphanumeric.test(before) && ideograph.test(after));
}

/**
 * A mark a Latin word can start or end with: ASCII punctuation, a currency sign that is not
 * full-width ("¥0.07", "€3", not "￥"), or the minus sign ("−0.8").
 */
const latinWordMark = /^(?:[!-~]|(?![\uff00-\uffef])\p{Sc}|\u2212)$/u;

/**
 * At a value's edge the gap also stands beside such a mark, since a value such as "--model",
 * "/tmp/x", "¥0.07" or "x (2)" is a Latin word to the reader.
 */
export function needsGapAtValueEdge(before: string, after: string): boolean {
  return needsGap(before, after) || (ideograph.test(before) && latinWordMark.test(after)) || (latinWordMark.test(before) && ideograph.test(after));
}

/** A gap at a value's edge that the page's `text-autospace` does not draw (it spaces letters and digits only). */
export function needsUndrawnGap(before: string, after: string): boolean {
  return needsGapAtValueEdge(before, after) && !needsGap(before, after);
}

// A value is carried through i18next between these private-use marks, so the spacing step can tell
// it from the template around it.
const OPEN = '\ue000';
const CLOSE = '\ue001';

/** The gap typed in at each ideograph–letter/digit boundary of `marked`, except inside marked values. */
export function spaceMarked(marked: string): string {
  let out = '';
  let depth = 0;
  // The last character written and whether it was inside a value, to decide a boundary across a mark.
  let last = '';
  let lastInValue = false;
  for (const ch of marked) {
    if (ch === OPEN) {
      depth += 1;
      continue;
    }
    if (ch === CLOSE) {
      depth = Math.max(0, depth - 1);
      continue;
    }
    const inValue = depth > 0;
    const gap = inValue === lastInValue ? !inValue && needsGap(last, ch) : needsGapAtValueEdge(last, ch);
    if (last && gap) out += ' ';
    out += ch;
    last = ch;
    lastInValue = inValue;
  }
  return out;
}

// i18next reads these from the same object as the values; they must reach it as they are.
const I18NEXT_OPTIONS = new Set(['context', 'count', 'ordinal', 'defaultValue', 'lng', 'lngs', 'ns', 'returnObjects', 'joinArrays', 'keySeparator', 'nsSeparator', 'postProcess', 'interpolation', 'replace', 'fallbackLng']);

/** Names of the values a template puts inside a nested key (`$t(modes.{{mode}})`): i18next looks those up, so they go unmarked. */
function nestedNames(template: string | undefined): Set<string> {
  const names = new Set<string>();
  for (const nest of template?.matchAll(/\$t\(([^)]*)\)/gu) ?? []) for (const m of nest[1].matchAll(/\{\{\s*(\w+)\s*\}\}/gu)) names.add(m[1]);
  return names;
}

/** The values with each string marked as a value; numbers stay numbers (plurals read `count`). */
export function markValues<V extends Record<string, unknown>>(values: V, unmarked: ReadonlySet<string> = new Set()): V {
  const marked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) marked[key] = typeof value === 'string' && !I18NEXT_OPTIONS.has(key) && !unmarked.has(key) ? `${OPEN}${value}${CLOSE}` : value;
  return marked as V;
}

/** `marked` cut into the template's own text and the values put into it (a value inside a value counts as one). */
export function markedSegments(marked: string): { text: string; value: boolean }[] {
  const segments: { text: string; value: boolean }[] = [];
  let depth = 0;
  for (const ch of marked) {
    if (ch === OPEN || ch === CLOSE) {
      depth = ch === OPEN ? depth + 1 : Math.max(0, depth - 1);
      continue;
    }
    const value = depth > 0;
    const last = segments.at(-1);
    if (last?.value === value) last.text += ch;
    else segments.push({ text: ch, value });
  }
  return segments;
}

/** A translate function whose output keeps each value between marks (see `markedSegments`). */
export function markedTranslate<V extends Record<string, unknown>>(t: (key: string, values: V) => string, templateOf: (key: string) => string | undefined = () => undefined): (key: string, values?: V) => string {
  return (key, values) => t(key, markValues(values ?? ({} as V), nestedNames(templateOf(key))));
}

/**
 * A translate function whose output is spaced for plain text: template boundaries and value edges,
 * values untouched. `templateOf` gives a key's raw template, so a value used inside a nested key is
 * passed as it is.
 */
export function plainTranslate<V extends Record<string, unknown>>(t: (key: string, values: V) => string, templateOf: (key: string) => string | undefined = () => undefined): (key: string, values?: V) => string {
  const marked = markedTranslate(t, templateOf);
  return (key, values) => spaceMarked(marked(key, values));
}
