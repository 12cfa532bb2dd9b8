// Lucide icons as data: lucide-static's icon-nodes.json maps a name to its SVG children
// ([tag, attributes] pairs on a 24 × 24 stroke grid). Both the .pptx drawer (SVG markup) and the
// preview (React elements) build the icon from the same node, so it looks the same in both.

export type IconNode = [tag: string, attrs: Record<string, string | number>][];

/** The attributes Lucide puts on every icon's <svg>, with the stroke set to the icon's colour. */
export function iconSvgAttributes(color: string): Record<string, string | number> {
  return {
    xmlns: 'http://www.w3.org/2000/svg',
    viewBox: '0 0 24 24',
    fill: 'none',
    stroke: `#${color}`,
    'stroke-width': 2,
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
  };
}

function escapeAttr(value: string | number): string {
  return String(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** Standalone SVG markup of an icon, `sizePx` square, stroked in `color` (6-digit hex). */
export function iconSvgMarkup(node: IconNode, color: string, sizePx: number): string {
  const root = { ...iconSvgAttributes(color), width: sizePx, height: sizePx };
  const attrs = (a: Record<string, string | number>): string =>
    Object.entries(a)
      .filter(([k]) => /^[a-zA-Z][\w:-]*$/.test(k))
      .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
      .join('');
  return `<svg${attrs(root)}>${node.map(([tag, a]) => (/^[a-z]+$/.test(tag) ? `<${tag}${attrs(a)}/>` : '')).join('')}</svg>`;
}
