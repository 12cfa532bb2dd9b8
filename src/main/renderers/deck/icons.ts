// The Lucide icon set (lucide-static, a dependency): names for validation, nodes for drawing.
// Loaded once, on first use, from the package's icon-nodes.json. That file holds only the canonical
// names; the package's icons/ folder also has the aliases Lucide's site lists (`waves` is
// `waves-horizontal`), so a name missing from the nodes is looked up there and resolved to the
// canonical icon drawing the same thing (the preview's icon set knows only canonical names).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type DeckSpec } from '../../../shared/specs/deck';
import { type IconNode } from '../../../shared/specs/icon-svg';

let nodes: Map<string, IconNode> | undefined;
let nodesFile = '';
/** Alias → canonical name (null: no such icon), filled as names are asked for. */
const aliases = new Map<string, string | null>();

function iconNodes(): Map<string, IconNode> {
  if (!nodes) {
    const require = createRequire(import.meta.url);
    nodesFile = require.resolve('lucide-static/icon-nodes.json');
    nodes = new Map(Object.entries(JSON.parse(readFileSync(nodesFile, 'utf8')) as Record<string, IconNode>));
  }
  return nodes;
}

const SVG_CHILD = /<(\w+)((?:\s+[\w:-]+="[^"]*")*)\s*\/>/g;
const SVG_ATTR = /([\w:-]+)="([^"]*)"/g;

/** The children of an icon's SVG file, as [tag, attributes] like icon-nodes.json. */
function svgChildren(svg: string): IconNode {
  const body = svg.slice(svg.indexOf('>', svg.indexOf('<svg')) + 1);
  return [...body.matchAll(SVG_CHILD)].map((m) => {
    const attrs: Record<string, string | number> = {};
    for (const a of (m[2] ?? '').matchAll(SVG_ATTR)) {
      const v = a[2] ?? '';
      attrs[a[1] ?? ''] = /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
    }
    return [m[1] ?? '', attrs];
  });
}

/** The canonical name of `name`: itself, the icon an alias draws, or null when Lucide has neither. */
export function canonicalIconName(name: string): string | null {
  const all = iconNodes();
  if (all.has(name)) return name;
  const known = aliases.get(name);
  if (known !== undefined) return known;
  let found: string | null = null;
  const file = join(dirname(nodesFile), 'icons', `${name}.svg`);
  if (/^[a-z0-9-]+$/.test(name) && existsSync(file)) {
    const wanted = JSON.stringify(svgChildren(readFileSync(file, 'utf8')));
    for (const [candidate, node] of all) {
      if (JSON.stringify(node) === wanted) {
        found = candidate;
        break;
      }
    }
  }
  aliases.set(name, found);
  return found;
}

export function iconNode(name: string): IconNode | undefined {
  const canonical = canonicalIconName(name);
  return canonical === null ? undefined : iconNodes().get(canonical);
}

export function iconNames(): string[] {
  return [...iconNodes().keys()];
}

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] ?? 0;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] ?? 0;
      prev[j] = Math.min(up + 1, (prev[j - 1] ?? 0) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length] ?? 0;
}

/** Up to `limit` names like `name`: names sharing its words first, then the nearest spellings. */
export function closeIconNames(name: string, limit = 6): string[] {
  const words = name.split('-').filter((w) => w.length > 2);
  const scored = iconNames().map((candidate) => {
    const shared = words.filter((w) => candidate.split('-').includes(w) || candidate.includes(w)).length;
    return { candidate, score: editDistance(name, candidate) - shared * 4 };
  });
  scored.sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate));
  return scored.slice(0, limit).map((s) => s.candidate);
}

/** Every icon name in the spec that Lucide does not have, as validation errors naming the field. */
export function iconErrors(spec: Pick<DeckSpec, 'slides'>): string[] {
  const errors: string[] = [];
  const check = (path: string, icon: string | undefined): void => {
    if (icon === undefined || iconNode(icon)) return;
    errors.push(`${path}: unknown icon "${icon}"; close Lucide names: ${closeIconNames(icon).join(', ')} (all names: lucide.dev/icons)`);
  };
  spec.slides.forEach((slide, i) => {
    if (slide.layout === 'cards') slide.cards.forEach((c, j) => check(`slides[${i}].cards[${j}].icon`, c.icon));
    if (slide.layout === 'process') slide.steps.forEach((s, j) => check(`slides[${i}].steps[${j}].icon`, s.icon));
  });
  return errors;
}
