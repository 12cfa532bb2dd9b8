// The plain text of an mdast node: what a reader sees, for counting and measuring.
import { type Nodes } from 'mdast';

export function plainText(node: Nodes | undefined): string {
  if (!node) return '';
  if (node.type === 'footnoteDefinition' || node.type === 'definition') return '';
  if ('value' in node && typeof node.value === 'string' && node.type !== 'html') return node.value;
  if (node.type === 'image') return node.alt ?? '';
  if ('children' in node) return (node.children as Nodes[]).map(plainText).join(node.type === 'tableRow' ? ' ' : '');
  return '';
}
