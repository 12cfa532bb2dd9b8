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

/**
 * The text of a node as a quoted excerpt shows it: like plainText, but a table's cells and rows and a
 * list's items stay apart ("城区 | 2.5 / 郊区 | 1.1"): a reader cannot tell where "2.5郊区" was split.
 */
export function excerptText(node: Nodes | undefined): string {
  if (!node) return '';
  if (node.type === 'table') return node.children.map(excerptText).join(' / ');
  if (node.type === 'tableRow') return node.children.map(excerptText).join(' | ');
  if (node.type === 'tableCell') return plainText(node).trim();
  if (node.type === 'list') return node.children.map((item) => plainText(item).trim()).filter((text) => text !== '').join(' / ');
  return plainText(node);
}
