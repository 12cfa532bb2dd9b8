// The deck outline's home: `work/outline.json` in the task's own folder. The agent's propose_outline,
// the person's edits and approval (the service), render_deck's gate and the system prompt all read
// and write it here, so there is one file and one way to read it.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { DeckOutline, type OutlineRow } from '../../shared/specs/deck-outline';
import { FolioError, formatZodError } from '../../shared/errors';
import { TASK_SUBFOLDERS } from './layout';
import { readInside, resolveInside, writeInside } from './task-paths';

export const OUTLINE_PATH = `${TASK_SUBFOLDERS.work}/outline.json`;

/** An outline is a few KB even at the row limit; anything far larger was not written by Folio. */
const MAX_OUTLINE_BYTES = 2 * 1024 * 1024;

/** What is in work/outline.json: nothing, a valid outline, or a file that is not one (and why). */
export type OutlineFileState = { kind: 'none' } | { kind: 'ok'; outline: DeckOutline } | { kind: 'invalid'; reason: string };

export async function readOutlineFile(taskRoot: string): Promise<OutlineFileState> {
  // A task gets its folder with its first message or file; before that it has no outline.
  if (!existsSync(taskRoot)) return { kind: 'none' };
  let text: string;
  try {
    text = (await readInside(taskRoot, OUTLINE_PATH, { maxBytes: MAX_OUTLINE_BYTES, noLinks: true })).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
    if (err instanceof FolioError) return { kind: 'invalid', reason: err.message };
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { kind: 'invalid', reason: `${OUTLINE_PATH} is not JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  const parsed = DeckOutline.safeParse(json);
  if (!parsed.success) return { kind: 'invalid', reason: `${OUTLINE_PATH} is not a valid outline: ${formatZodError(parsed.error)}` };
  return { kind: 'ok', outline: parsed.data };
}

/** The outline, or null when there is none; a damaged file counts as none for readers that only look. */
export async function readOutline(taskRoot: string): Promise<DeckOutline | null> {
  const state = await readOutlineFile(taskRoot);
  return state.kind === 'ok' ? state.outline : null;
}

/**
 * Writes the outline whole or not at all (temp file created exclusively, then renamed over the
 * target, which replaces a planted link instead of writing through it).
 */
export async function writeOutline(taskRoot: string, outline: DeckOutline): Promise<void> {
  const checked = DeckOutline.parse(outline);
  const tmp = `${OUTLINE_PATH}.${randomBytes(6).toString('hex')}.tmp`;
  await writeInside(taskRoot, tmp, `${JSON.stringify(checked, null, 2)}\n`, { exclusive: true });
  // The target by name inside the real work/ folder: a link planted there is replaced, not followed.
  const folder = resolveInside(taskRoot, TASK_SUBFOLDERS.work);
  const tmpAbs = path.join(folder, path.basename(tmp));
  try {
    await fs.rename(tmpAbs, path.join(folder, path.basename(OUTLINE_PATH)));
  } catch (err) {
    await fs.rm(tmpAbs, { force: true });
    throw err;
  }
}

/** A freshly proposed (or edited) outline: not approved until the person says so. */
export function proposedOutline(slides: OutlineRow[], now = Date.now()): DeckOutline {
  return { status: 'proposed', approved_at: null, updated_at: now, slides };
}
