// One new version of a deck, as the agent's render_deck and a person's "go back to this version"
// both make it: render (never overwriting: name-vN.pptx), check against the rendered slides, write
// the preview sidecar with where it came from and its per-slide hashes, and say what changed.
import { basename, dirname } from 'node:path';
import { type DeckSpec } from '../../../shared/specs/deck';
import { type DeckVersion } from '../../../shared/specs/deck-versions';
import { FolioError } from '../../../shared/errors';
import { readArtifactPreview, writePreviewSidecar } from '../artifact-preview';
import { resolveInside, resolveTaskPath, type TaskFolders, toRelative, writeInside } from '../../workspace/task-paths';
import { prestartWarmConverter } from '../soffice-warm';
import { renderDeck, type RenderDeckResult } from './index';
import { checkRenderedDeck } from './rendered-check';
import { deckFamily, listDeckVersions, slideHashes } from './versions';
import { type VerifyOptions } from './verify';

export interface DeckVersionOptions {
  /** Where image paths resolve (the task folder, or a coding task's project folder). */
  baseDir: string;
  /** The task's own folder: artifacts and their sidecars are relative to it. */
  taskRoot: string;
  /** Absolute artifacts folder. */
  outDir: string;
  fileName: string;
  /** The spec file this render comes from (relative to its root as the agent named it), null for an inline spec. */
  specPath: string | null;
  /** Set when restoring: the version restored (task-relative). */
  restoredFrom?: string;
  themesDir?: string;
  /** Where imported templates live (`<data>/templates`), for a spec whose theme names one. */
  templatesDir?: string;
  check?: VerifyOptions;
  /** Called once the file is written, before the rendered check starts. */
  onRendered?: () => void;
}

export interface RenderedVersion {
  result: RenderDeckResult;
  /** The new file, relative to the task folder. */
  rel: string;
  /** The new version, compared with the one before it; null if the listing could not place it. */
  version: DeckVersion | null;
}

export async function renderDeckVersion(spec: DeckSpec, o: DeckVersionOptions): Promise<RenderedVersion> {
  // LibreOffice starts (seconds) while the deck is built, for the check that follows.
  prestartWarmConverter(o.check?.hiddenPaths);
  const result = await renderDeck(spec, { baseDir: o.baseDir, outDir: o.outDir, fileName: o.fileName,
    ...(o.themesDir ? { themesDir: o.themesDir } : {}),
    ...(o.templatesDir ? { templatesDir: o.templatesDir } : {}),
  });
  o.onRendered?.();
  const { report } = await checkRenderedDeck(result, o.check);
  const rendered = { ...result, report };
  writePreviewSidecar(result.path, {
    kind: 'deck',
    spec: result.spec,
    report,
    plan: result.plan,
    version: { spec_path: o.specPath, slides: slideHashes(result.spec, result.plan), restored_from: o.restoredFrom ?? null },
    theme: result.theme,
  });
  const rel = toRelative(o.taskRoot, result.path);
  const { versions } = await listDeckVersions(o.taskRoot, rel);
  return { result: rendered, rel, version: versions.find((v) => v.path === rel) ?? null };
}

/** "Version 2 of deck.pptx: changed s3 (slide 3); 5 slides unchanged." for the model and the logs. */
export function describeVersion(version: DeckVersion | null): string {
  if (!version || version.version === 1) return '';
  if (!version.comparable) return `Version ${version.version} of this deck.`;
  const list = (change: string) =>
    version.slides
      .filter((s) => s.change === change)
      .map((s) => `${s.id} (slide ${s.number})`)
      .join(', ');
  const parts: string[] = [];
  const changed = list('changed');
  const added = list('added');
  if (changed) parts.push(`changed ${changed}`);
  if (added) parts.push(`added ${added}`);
  if (version.removed.length > 0) parts.push(`removed ${version.removed.join(', ')}`);
  const unchanged = version.slides.filter((s) => s.change === 'unchanged').length;
  parts.push(`${unchanged} slide${unchanged === 1 ? '' : 's'} unchanged`);
  return `Version ${version.version} of this deck, compared with the previous version: ${parts.join('; ')}.`;
}

export interface RestoredVersion {
  /** The new latest version (task-relative). */
  path: string;
  /** The spec file the old spec was written back into; null when the version came from an inline spec. */
  spec_path: string | null;
  version: DeckVersion | null;
}

/**
 * "Go back to this version": the version's spec is written back into the spec file it came from (so
 * the agent's next edit starts from it) and rendered as the new latest version. Nothing is
 * overwritten or deleted: every version stays, including the one this replaces as the latest.
 */
export async function restoreDeckVersion(
  folders: TaskFolders,
  relPath: string,
  o: Pick<DeckVersionOptions, 'themesDir' | 'templatesDir' | 'check'> = {},
): Promise<RestoredVersion> {
  const preview = await readArtifactPreview(folders.task, relPath);
  const family = deckFamily(basename(relPath));
  if (preview.kind !== 'deck' || !family) {
    const why = preview.kind === 'none' ? preview.reason : `it is a ${preview.kind}, not a deck`;
    throw new FolioError('conflict', `Cannot go back to ${relPath}: ${why}`);
  }
  let specPath = preview.version?.spec_path ?? null;
  if (specPath !== null) {
    const target = resolveTaskPath(folders, specPath, { access: 'write' });
    // Only a spec in the working folder is the agent's to edit; anything else is left as it is.
    if (target.area === 'work') await writeInside(target.root, target.rel, `${JSON.stringify(preview.spec, null, 2)}\n`);
    else specPath = null;
  }
  const rendered = await renderDeckVersion(preview.spec, {
    baseDir: folders.work,
    taskRoot: folders.task,
    outDir: dirname(resolveInside(folders.task, preview.path)),
    fileName: `${family.stem}.pptx`,
    specPath: preview.version?.spec_path ?? null,
    restoredFrom: preview.path,
    ...o,
  });
  return { path: rendered.rel, spec_path: specPath, version: rendered.version };
}
