// Just enough XML for OOXML text: the parts Folio reads are machine-written and flat, so regular
// expressions over elements are dependable here, and avoid a parser dependency.

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/giu, (whole, body: string) => {
    if (body.startsWith('#x') || body.startsWith('#X')) return safeCodePoint(parseInt(body.slice(2), 16), whole);
    if (body.startsWith('#')) return safeCodePoint(parseInt(body.slice(1), 10), whole);
    return ENTITIES[body.toLowerCase()] ?? whole;
  });
}

function safeCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}

/** The inner XML of every `<tag ...>...</tag>` (not nested in itself), in document order. */
export function elements(xml: string, tag: string): string[] {
  const re = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'gu');
  return Array.from(xml.matchAll(re), (m) => m[1] ?? '');
}

/** The value of `name="..."` in the first tag of `xml`'s fragment `tagText`. */
export function attribute(tagText: string, name: string): string | null {
  const m = new RegExp(`\\s${name}="([^"]*)"`, 'u').exec(tagText);
  return m ? decodeEntities(m[1] ?? '') : null;
}

/** Every opening (or self-closing) tag `<tag .../>` as text, for reading attributes. */
export function openTags(xml: string, tag: string): string[] {
  const re = new RegExp(`<${tag}(?:\\s[^>]*)?/?>`, 'gu');
  return Array.from(xml.matchAll(re), (m) => m[0]);
}

/** Relationship id → target, resolved against the folder of the part that owns the .rels file. */
export function relationships(relsXml: string, partDir: string): Map<string, { target: string; type: string }> {
  const out = new Map<string, { target: string; type: string }>();
  for (const tag of openTags(relsXml, 'Relationship')) {
    const id = attribute(tag, 'Id');
    const target = attribute(tag, 'Target');
    if (!id || !target || attribute(tag, 'TargetMode') === 'External') continue;
    out.set(id, { target: resolvePart(partDir, target), type: attribute(tag, 'Type') ?? '' });
  }
  return out;
}

export function resolvePart(dir: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = dir === '' ? [] : dir.split('/');
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}
