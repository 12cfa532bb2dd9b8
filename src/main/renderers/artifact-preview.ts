// The data behind an artifact's HTML preview. When a render tool writes `artifacts/x.pptx` it also
// writes a hidden sidecar `artifacts/.x.pptx.preview.json` holding the validated spec, the quality
// report and the deck plan (what was drawn), so the UI can draw the deck or document with the same theme without parsing Office XML.
// A file without a sidecar (uploaded, or made by a script) simply has no preview.
import { closeSync, fsyncSync, lstatSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, extname, join } from 'node:path';
import { ArtifactPreview } from '../../shared/contract/methods';
import { NotFoundError } from '../../shared/errors';
import { type DeckSpec, type QualityReport } from '../../shared/specs/deck';
import { type DeckPlan } from '../../shared/specs/deck-plan';
import { type Theme } from '../../shared/specs/themes';
import { type DeckVersionSource } from '../../shared/specs/deck-versions';
import { type DocumentSpec } from '../../shared/specs/document';
import { type RevisedDocument } from '../../shared/specs/document-revision';
import { assertRealFolder, createExclusiveSync } from '../workspace/exclusive-create';
import { readInside, resolveInside, toRelative } from '../workspace/task-paths';
import { type DocumentReport, type LoadedSection } from './document';

/** What a sidecar holds: the preview minus its `path`, which is wherever the artifact is read from. */
export type PreviewSidecar =
  | { kind: 'deck'; spec: DeckSpec; report: QualityReport; plan: DeckPlan; version?: DeckVersionSource; theme?: Theme }
  | { kind: 'document'; spec: DocumentSpec; sections: LoadedSection[]; report: DocumentReport }
  | ({ kind: 'revision' } & RevisedDocument);

/** Bigger than any spec the engines accept (300 slides × a few KB); anything larger is not ours. */
const MAX_SIDECAR_BYTES = 32 * 1024 * 1024;
/**
 * The sidecar is written right after its artifact, so an artifact clearly newer than its sidecar was
 * replaced by something else (a person copying a file over it) and the preview would lie.
 */
const STALE_SLACK_MS = 2000;

/** What a sidecar may describe for each extension: a .docx is a rendered document or a revised one. */
const PREVIEW_KINDS: Record<string, readonly ArtifactPreview['kind'][]> = { '.pptx': ['deck'], '.docx': ['document', 'revision'] };

export function previewSidecarPath(artifactAbs: string): string {
  return join(dirname(artifactAbs), `.${basename(artifactAbs)}.preview.json`);
}

/** Writes the sidecar atomically (temp file + rename) so a reader never sees half of it. */
export function writePreviewSidecar(artifactAbs: string, data: PreviewSidecar): string {
  // The artifact's folder as the resolver answered it; the rename replaces a link at the sidecar's
  // name rather than following it.
  const dir = assertRealFolder(dirname(artifactAbs));
  const target = previewSidecarPath(join(dir, basename(artifactAbs)));
  const tmpName = `${basename(target)}.${randomBytes(6).toString('hex')}.tmp`;
  const tmp = join(dir, tmpName);
  const fd = createExclusiveSync(dir, tmpName);
  try {
    writeSync(fd, JSON.stringify(data));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, target);
  } catch (err) {
    unlinkSync(tmp);
    throw err;
  }
  return target;
}

function none(path: string, reason: string): ArtifactPreview {
  return { kind: 'none', path, reason };
}

/**
 * The preview of a task file: the deck or document it was rendered from, or `kind: 'none'` with the
 * reason there is none. Throws `path_escape` for paths outside the task and `not_found` for missing files.
 */
export async function readArtifactPreview(taskRoot: string, relPath: string): Promise<ArtifactPreview> {
  const abs = resolveInside(taskRoot, relPath);
  const rel = toRelative(taskRoot, abs);
  let artifactStat;
  try {
    artifactStat = statSync(abs);
  } catch {
    throw new NotFoundError(`No file ${rel} in this task`);
  }
  if (!artifactStat.isFile()) throw new NotFoundError(`${rel} is not a file`);

  const expected = PREVIEW_KINDS[extname(abs).toLowerCase()];
  if (!expected) return none(rel, 'Previews are drawn for .pptx and .docx files only.');

  const sidecar = previewSidecarPath(abs);
  let sidecarStat;
  try {
    // lstat: Folio writes sidecars as plain files; a link there was planted and is never followed.
    sidecarStat = lstatSync(sidecar);
    if (!sidecarStat.isFile()) throw new Error('not a plain file');
  } catch {
    return none(rel, "Made outside Folio's renderer: no preview data.");
  }
  if (sidecarStat.size > MAX_SIDECAR_BYTES) return none(rel, 'The preview data is too large to show.');
  if (artifactStat.mtimeMs > sidecarStat.mtimeMs + STALE_SLACK_MS) {
    return none(rel, 'The file changed after Folio rendered it: the preview data no longer matches it.');
  }

  let raw: unknown;
  try {
    raw = JSON.parse((await readInside(taskRoot, toRelative(taskRoot, sidecar), { noLinks: true })).toString('utf8'));
  } catch {
    return none(rel, 'The preview data is unreadable; render the file again to get a preview.');
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return none(rel, 'The preview data is not an object; render the file again to get a preview.');
  }
  const parsed = ArtifactPreview.safeParse({ ...raw, path: rel });
  if (!parsed.success) {
    return none(rel, 'The preview data does not match this version of Folio; render the file again to get a preview.');
  }
  if (!expected.includes(parsed.data.kind)) {
    return none(rel, `The preview data describes a ${parsed.data.kind}, but ${rel} is not one.`);
  }
  return parsed.data;
}
