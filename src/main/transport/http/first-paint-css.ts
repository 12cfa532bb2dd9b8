// The part of the app's stylesheet the first page's drawn task list can use, so that page inlines a
// few kilobytes instead of the whole sheet: parsing and indexing ~50 kB of CSS before the first frame
// cost the list tens of milliseconds (bench/README.md, renderer notes). The whole sheet follows the
// list as a link, so it loads before the app's modules run.
//
// A rule is kept when every class, id, attribute and element its selector names occurs somewhere in
// the markup: a superset of the rules that match (how the names combine is not checked), which is
// safe, since a rule kept in excess changes nothing the whole sheet would not. Pseudo-classes are
// ignored, so `:root`, `:hover` and `:has(...)` rules of drawn elements stay; @media and @supports
// blocks are filtered inside; @keyframes and @counter-style stay only if a kept rule names them.

/** One top-level item of a sheet: a rule `prelude{body}`, or a statement such as `@import x;`. */
interface CssItem {
  prelude: string;
  /** The text between the braces; null for a statement. */
  body: string | null;
}

/** Index just past the string or comment starting at `at`, or `at` itself if none starts there. */
function skipStringOrComment(css: string, at: number): number {
  const c = css[at];
  if (c === '/' && css[at + 1] === '*') {
    const end = css.indexOf('*/', at + 2);
    return end === -1 ? css.length : end + 2;
  }
  if (c === '"' || c === "'") {
    let i = at + 1;
    while (i < css.length && css[i] !== c) i += css[i] === '\\' ? 2 : 1;
    return i + 1;
  }
  return at;
}

/** The sheet's top-level items, comments dropped; throws on unbalanced braces. */
export function splitCss(css: string): CssItem[] {
  const items: CssItem[] = [];
  let prelude = '';
  let i = 0;
  while (i < css.length) {
    const skipped = skipStringOrComment(css, i);
    if (skipped !== i) {
      if (css[i] !== '/') prelude += css.slice(i, skipped);
      i = skipped;
      continue;
    }
    const c = css[i];
    if (c === ';' && prelude.trim() !== '') {
      items.push({ prelude: prelude.trim(), body: null });
      prelude = '';
      i += 1;
    } else if (c === '{') {
      let depth = 1;
      let j = i + 1;
      while (j < css.length && depth > 0) {
        const past = skipStringOrComment(css, j);
        if (past !== j) {
          j = past;
          continue;
        }
        if (css[j] === '{') depth += 1;
        else if (css[j] === '}') depth -= 1;
        j += 1;
      }
      if (depth !== 0) throw new Error('The stylesheet has an unclosed block');
      items.push({ prelude: prelude.trim(), body: css.slice(i + 1, j - 1) });
      prelude = '';
      i = j;
    } else if (c === '}') {
      throw new Error('The stylesheet closes a block it never opened');
    } else {
      prelude += c;
      i += 1;
    }
  }
  return items;
}

/** The names a piece of markup uses: element names, classes, ids and attribute names. */
export interface MarkupNames {
  elements: ReadonlySet<string>;
  classes: ReadonlySet<string>;
  ids: ReadonlySet<string>;
  attributes: ReadonlySet<string>;
}

export function markupNames(markup: string): MarkupNames {
  const elements = new Set<string>();
  const classes = new Set<string>();
  const ids = new Set<string>();
  const attributes = new Set<string>();
  for (const tag of markup.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/gu)) {
    elements.add(tag[1].toLowerCase());
    for (const attribute of tag[2].matchAll(/([^\s"'=/>]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/gu)) {
      const name = attribute[1].toLowerCase();
      attributes.add(name);
      const value = (attribute[2] ?? '').replace(/^["']|["']$/gu, '');
      if (name === 'class') for (const cls of value.split(/\s+/u)) if (cls) classes.add(cls);
      if (name === 'id' && value) ids.add(value);
    }
  }
  return { elements, classes, ids, attributes };
}

/** Splits a selector list at its top-level commas (not those inside parentheses or brackets). */
function selectorsOf(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i += 1) {
    const c = list[i];
    if (c === '(' || c === '[') depth += 1;
    else if (c === ')' || c === ']') depth -= 1;
    else if (c === ',' && depth === 0) {
      parts.push(list.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(list.slice(start));
  return parts;
}

/** Whether every name the selector requires occurs in the markup. */
export function mayMatch(selector: string, names: MarkupNames): boolean {
  let rest = selector;
  // Pseudo-classes and pseudo-elements, innermost arguments first: `:has(> .x)`, `:not(.y)`, `::before`.
  for (let before = ''; before !== rest; ) {
    before = rest;
    rest = rest.replace(/::?[\w-]+\([^()]*\)/gu, '');
  }
  rest = rest.replace(/::?[\w-]+/gu, '');
  let ok = true;
  rest = rest.replace(/\[\s*([\w:-]+)[^\]]*\]/gu, (_, name: string) => {
    ok &&= names.attributes.has(name.toLowerCase());
    return ' ';
  });
  rest = rest.replace(/([.#])(-?[_a-zA-Z][\w-]*)/gu, (_, kind: string, name: string) => {
    ok &&= kind === '.' ? names.classes.has(name) : names.ids.has(name);
    return ' ';
  });
  for (const element of rest.match(/[a-zA-Z][\w-]*/gu) ?? []) ok &&= names.elements.has(element.toLowerCase());
  return ok;
}

const GROUPING = /^@(media|supports|layer|container)\b/iu;
const NAMED = /^@(keyframes|-webkit-keyframes|counter-style)\s+([^\s{]+)/iu;

function keptItems(items: readonly CssItem[], names: MarkupNames): CssItem[] {
  const kept: CssItem[] = [];
  for (const item of items) {
    if (item.body === null) kept.push(item);
    else if (GROUPING.test(item.prelude)) {
      const inner = keptItems(splitCss(item.body), names);
      if (inner.length > 0) kept.push({ prelude: item.prelude, body: inner.map(cssText).join('') });
    } else if (item.prelude.startsWith('@')) kept.push(item);
    else if (selectorsOf(item.prelude).some((s) => mayMatch(s, names))) kept.push(item);
  }
  return kept;
}

const cssText = (item: CssItem): string => (item.body === null ? `${item.prelude};` : `${item.prelude}{${item.body}}`);

/** The rules of `css` that may apply to `markup`, in the sheet's order. */
export function cssForMarkup(css: string, markup: string): string {
  const kept = keptItems(splitCss(css), markupNames(markup));
  const styleText = kept.filter((item) => !NAMED.test(item.prelude)).map(cssText).join('');
  // An animation or counter style is kept when a kept rule names it.
  const used = (item: CssItem) => {
    const name = NAMED.exec(item.prelude)?.[2];
    return name === undefined || new RegExp(`(^|[^\\w-])${name.replace(/[^\w-]/gu, '')}([^\\w-]|$)`, 'u').test(styleText);
  };
  return kept.filter(used).map(cssText).join('');
}
