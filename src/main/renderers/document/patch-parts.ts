// Edits to parts of a built .docx that docx cannot write, made in one pass over the package.
import JSZip from 'jszip';

/** A change to one part's XML; returns the text unchanged when there is nothing to change. */
export type PartPatch = (xml: string) => string;

/** The package with each named part patched; the bytes as given when no patch changed anything. */
export async function patchParts(bytes: Uint8Array, patches: Readonly<Record<string, PartPatch>>): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(bytes);
  let changed = false;
  for (const [name, patch] of Object.entries(patches)) {
    const xml = await zip.file(name)?.async('string');
    if (xml === undefined) continue;
    const patched = patch(xml);
    if (patched === xml) continue;
    zip.file(name, patched);
    changed = true;
  }
  return changed ? zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' }) : bytes;
}
