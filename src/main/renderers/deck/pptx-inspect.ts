// Reads a .pptx back for checks: package integrity (every relationship target exists, every part
// has a content type) and the text of each slide. Used by the tests; cheap enough to run anywhere.
import type JSZip from 'jszip';
import { posix } from 'node:path';
import { decodeXmlText } from './cjk-fonts';

export interface PackageProblems {
  missingTargets: string[];
  uncoveredParts: string[];
}

function attr(tag: string, name: string): string | undefined {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
}

/** The part a relationship points at, from the .rels file that holds it. */
function resolveTarget(relsPath: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  // "ppt/slides/_rels/slide1.xml.rels" describes "ppt/slides/slide1.xml": targets are relative to "ppt/slides/".
  const sourceDir = posix.dirname(posix.dirname(relsPath));
  return posix.normalize(posix.join(sourceDir === '.' ? '' : sourceDir, target));
}

export async function checkPackage(zip: JSZip): Promise<PackageProblems> {
  const files = Object.keys(zip.files).filter((n) => !zip.files[n]?.dir);
  const present = new Set(files);
  const missingTargets: string[] = [];
  for (const rels of files.filter((n) => n.endsWith('.rels'))) {
    const xml = (await zip.file(rels)?.async('string')) ?? '';
    for (const m of xml.matchAll(/<Relationship\b[^>]*>/g)) {
      const tag = m[0];
      if (attr(tag, 'TargetMode') === 'External') continue;
      const target = attr(tag, 'Target');
      if (target === undefined) {
        missingTargets.push(`${rels}: relationship without Target`);
        continue;
      }
      const part = resolveTarget(rels, decodeXmlText(target));
      if (!present.has(part)) missingTargets.push(`${rels} → ${target} (${part})`);
    }
  }
  const types = (await zip.file('[Content_Types].xml')?.async('string')) ?? '';
  const defaults = new Set([...types.matchAll(/<Default\b[^>]*Extension="([^"]+)"/g)].map((m) => (m[1] ?? '').toLowerCase()));
  const overrides = new Set([...types.matchAll(/<Override\b[^>]*PartName="([^"]+)"/g)].map((m) => (m[1] ?? '').toLowerCase()));
  const uncoveredParts = files.filter((name) => {
    if (name === '[Content_Types].xml') return false;
    if (overrides.has(`/${name}`.toLowerCase())) return false;
    // By the last dot of the file name: `_rels/.rels` has the extension "rels".
    const file = posix.basename(name);
    return !defaults.has(file.slice(file.lastIndexOf('.') + 1).toLowerCase());
  });
  return { missingTargets, uncoveredParts };
}

export function slidePartNames(zip: JSZip): string[] {
  return Object.keys(zip.files)
    .filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n))
    .sort((a, b) => Number(/(\d+)\.xml$/.exec(a)?.[1]) - Number(/(\d+)\.xml$/.exec(b)?.[1]));
}

/** The text of each paragraph in a DrawingML part, runs joined. */
export function paragraphTexts(xml: string): string[] {
  return [...xml.matchAll(/<a:p>([\s\S]*?)<\/a:p>/g)]
    .map((m) => [...(m[1] ?? '').matchAll(/<a:t>([\s\S]*?)<\/a:t>/g)].map((t) => decodeXmlText(t[1] ?? '')).join(''))
    .filter((t) => t.length > 0);
}

/** Cell texts of the first row of each table on a slide. */
export function tableFirstRows(xml: string): string[][] {
  return [...xml.matchAll(/<a:tbl>[\s\S]*?<a:tr\b[^>]*>([\s\S]*?)<\/a:tr>/g)].map((m) =>
    [...(m[1] ?? '').matchAll(/<a:tc\b[^>]*>([\s\S]*?)<\/a:tc>/g)].map((c) => paragraphTexts(c[1] ?? '').join('\n')),
  );
}

export function countTableRows(xml: string): number {
  return [...xml.matchAll(/<a:tr\b/g)].length;
}
