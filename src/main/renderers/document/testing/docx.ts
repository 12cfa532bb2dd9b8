// Test fixtures for the document engine: a document folder written to a temp directory, rendered, and its
// parts read back from the zip. Used by tests only.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import JSZip from 'jszip';

export function documentFolder(spec: object, sections: Record<string, string>, files: Record<string, Uint8Array> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-docx-in-'));
  writeFileSync(join(dir, 'document.json'), JSON.stringify(spec));
  mkdirSync(join(dir, 'sections'));
  for (const [name, text] of Object.entries(sections)) writeFileSync(join(dir, 'sections', name), text);
  for (const [name, data] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), data);
  }
  return dir;
}

export type DocxParts = { zip: JSZip; part: (name: string) => Promise<string> };

export async function openDocx(path: string): Promise<DocxParts> {
  const zip = await JSZip.loadAsync(readFileSync(path));
  const part = async (name: string): Promise<string> => {
    const file = zip.file(name);
    if (!file) throw new Error(`part ${name} is missing`);
    return file.async('string');
  };
  return { zip, part };
}

// docx output is machine-written and regular, so patterns are enough to read it back.
export const paragraphsOf = (xml: string): string[] => [...xml.matchAll(/<w:p\b[^>]*>([\s\S]*?)<\/w:p>/g)].map((m) => m[1] ?? '');
export const runsOf = (p: string): string[] => [...p.matchAll(/<w:r\b[^>]*>([\s\S]*?)<\/w:r>/g)].map((m) => m[1] ?? '');
export const textOf = (xml: string): string => [...xml.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');
export const styleOf = (p: string): string | undefined => /<w:pStyle w:val="([^"]+)"\/>/.exec(p)?.[1];

/** The `<w:style>` body of a style id in styles.xml. */
export function styleXml(styles: string, id: string): string {
  return new RegExp(`<w:style [^>]*w:styleId="${id}"[^>]*>([\\s\\S]*?)</w:style>`).exec(styles)?.[1] ?? '';
}

/** The abstract numbering definition that a `w:numId` instance uses. */
export function abstractNumbering(numbering: string, numId: string | undefined): string {
  const abstractId = /<w:abstractNumId w:val="(\d+)"\/>/.exec(new RegExp(`<w:num w:numId="${numId}">([\\s\\S]*?)</w:num>`).exec(numbering)?.[1] ?? '')?.[1];
  return new RegExp(`<w:abstractNum [^>]*w:abstractNumId="${abstractId}"[^>]*>([\\s\\S]*?)</w:abstractNum>`).exec(numbering)?.[1] ?? '';
}

/** One `<w:lvl>` of an abstract numbering definition. */
export function numberingLevel(abstract: string, ilvl: number): string {
  return new RegExp(`<w:lvl w:ilvl="${ilvl}"[^>]*>([\\s\\S]*?)</w:lvl>`).exec(abstract)?.[1] ?? '';
}
