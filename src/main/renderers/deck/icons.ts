// The Lucide icon set (lucide-static, a dependency): names for validation, nodes for drawing.
// Loaded once, on first use, from the package's icon-nodes.json.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type DeckSpec } from '../../../shared/specs/deck';
import { type IconNode } from '../../../shared/specs/icon-svg';

let nodes: Map<string, IconNode> | undefined;

function iconNodes(): Map<string, IconNode> {
  if (!nodes) {
    const require = createRequire(import.meta.url);
    const file = require.resolve('lucide-static/icon-nodes.json');
    nodes = new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, IconNode>));
  }
  return nodes;
}

export function iconNode(name: string): IconNode | undefined {
  return iconNodes().get(name);
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
