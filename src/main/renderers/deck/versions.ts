// The versions of a deck (`name.pptx`, `name-v2.pptx`, ...) and what changed between them, slide by
// slide, from the hashes each render records in its preview sidecar (see deck-versions.ts).
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type DeckSpec } from '../../../shared/specs/deck';
import { type DeckPlan, type PlannedSlide } from '../../../shared/specs/deck-plan';
import { type DeckVersion, type DeckVersionList, type DeckVersionSlide, type DeckVersionSource } from '../../../shared/specs/deck-versions';
import { ValidationError } from '../../../shared/errors';
import { resolveInside, toRelative } from '../../workspace/task-paths';
import { readArtifactPreview } from '../artifact-preview';

/** What a slide looks like, without where it sits: its number and the master's footer are the deck's. */
function drawnContent(slide: PlannedSlide): unknown {
  const { source_index: _index, ...rest } = slide;
  return { ...rest, elements: slide.elements.filter((e) => !(e.kind === 'text' && e.fromMaster)) };
}

/**
 * A hash per spec slide of the slides drawn for it (continuations included). A slide that moved but
 * looks the same keeps its hash; any visible change (text, layout, theme colours, notes) changes it.
 */
export function slideHashes(spec: DeckSpec, plan: DeckPlan): DeckVersionSource['slides'] {
  return spec.slides.map((slide, index) => {
    const drawn = plan.slides.filter((s) => s.source_index === index).map(drawnContent);
    const hash = createHash('sha256').update(JSON.stringify(drawn)).digest('hex').slice(0, 16);
    return { id: slide.id ?? `#${index + 1}`, hash };
  });
}

const PPTX = /\.pptx$/i;
const VERSION_SUFFIX = /^(.*)-v(\d+)$/;

/** `deck-v3.pptx` → {stem: "deck", version: 3}; `deck.pptx` → version 1 (as writeArtifactAtomic names them). */
export function deckFamily(fileName: string): { stem: string; version: number } | null {
  if (!PPTX.test(fileName)) return null;
  const name = fileName.replace(PPTX, '');
  const m = VERSION_SUFFIX.exec(name);
  if (m?.[1] && Number(m[2]) >= 2) return { stem: m[1], version: Number(m[2]) };
  return { stem: name, version: 1 };
}

/** The slides of one version compared with the previous one's (null: nothing to compare with). */
function compare(cur: DeckVersionSource, prev: DeckVersionSource | null, plan: DeckPlan | null): { slides: DeckVersionSlide[]; removed: string[] } {
  const before = new Map(prev?.slides.map((s) => [s.id, s.hash]) ?? []);
  const slides = cur.slides.map((s, index): DeckVersionSlide => {
    const old = before.get(s.id);
    const first = plan ? plan.slides.findIndex((p) => p.source_index === index) : -1;
    return { id: s.id, number: first >= 0 ? first + 1 : index + 1, change: old === undefined ? 'added' : old === s.hash ? 'unchanged' : 'changed' };
  });
  const now = new Set(cur.slides.map((s) => s.id));
  const removed = prev ? prev.slides.map((s) => s.id).filter((id) => !now.has(id)) : [];
  return { slides, removed };
}

/**
 * Every version of the deck `relPath` belongs to (relative to the task folder), oldest first, each
 * compared with the one before it. Files without version data are listed as not comparable.
 */
export async function listDeckVersions(taskRoot: string, relPath: string): Promise<DeckVersionList> {
  const abs = resolveInside(taskRoot, relPath);
  const family = deckFamily(basename(abs));
  if (!family) throw new ValidationError(`${relPath} is not a deck (.pptx)`);
  const dir = dirname(abs);
  const members = readdirSync(dir)
    .map((name) => ({ name, f: deckFamily(name) }))
    .filter((m): m is { name: string; f: { stem: string; version: number } } => m.f?.stem === family.stem)
    .sort((a, b) => a.f.version - b.f.version);
  const versions: DeckVersion[] = [];
  let prev: DeckVersionSource | null = null;
  for (const { name, f } of members) {
    const rel = toRelative(taskRoot, join(dir, name));
    let stat;
    try {
      stat = statSync(join(dir, name));
    } catch {
      continue;
    }
    if (!stat.isFile()) continue;
    const preview = await readArtifactPreview(taskRoot, rel).catch(() => null);
    const source = preview?.kind === 'deck' ? preview.version : null;
    const base = { path: rel, version: f.version, created_at: stat.mtimeMs, spec_path: source?.spec_path ?? null, restored_from: source?.restored_from ?? null };
    if (!source || preview?.kind !== 'deck') {
      versions.push({ ...base, comparable: false, slides: [], removed: [] });
      prev = null;
      continue;
    }
    versions.push({ ...base, comparable: true, ...compare(source, prev, preview.plan) });
    prev = source;
  }
  return { versions };
}
