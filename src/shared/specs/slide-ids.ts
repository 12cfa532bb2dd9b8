// Stable slide ids: every slide of a deck spec has an `id` that survives edits, so a person can say
// "change s3", versions can be compared slide by slide, and a slide's parts in the .pptx are named
// after it (unchanged slides keep byte-identical parts). Pure TypeScript: the spec schema, the
// renderer and the preview share it. The outline (deck-outline) uses the same ids on its rows.
import { z } from 'zod';

export const SLIDE_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,39}$/;

export const SlideId = z.string().regex(SLIDE_ID_PATTERN, 'slide ids are 1-40 lower-case letters, digits, "-" and "_", like "s3" or "results"');
export type SlideId = z.infer<typeof SlideId>;

/** The form render_deck gives slides that have none: s1, s2, ... */
const GENERATED = /^s(\d+)$/;

export interface AssignedIds {
  /** One id per slide, in order: the slide's own, or a new one. */
  ids: string[];
  /** Indexes of the slides that got a new id. */
  assigned: number[];
}

/**
 * Gives every slide without an id the next free `sN`, numbered on from the highest `sN` already
 * used, so a new slide never takes the id of one deleted before (which would read as "changed").
 * Deterministic: the same spec always gets the same ids.
 */
export function assignSlideIds(existing: readonly (string | undefined)[]): AssignedIds {
  const used = new Set(existing.filter((id): id is string => id !== undefined));
  let next = 1;
  for (const id of used) {
    const m = GENERATED.exec(id);
    if (m) next = Math.max(next, Number(m[1]) + 1);
  }
  const assigned: number[] = [];
  const ids = existing.map((id, index) => {
    if (id !== undefined) return id;
    while (used.has(`s${next}`)) next++;
    const fresh = `s${next++}`;
    used.add(fresh);
    assigned.push(index);
    return fresh;
  });
  return { ids, assigned };
}

/**
 * The name of one output slide: its spec slide's id, and for continuation slides (a spec slide the
 * planner split) the id with the slide's position in the split ("s3.2" is the second slide of s3).
 * "." cannot occur in an id, so keys never collide.
 */
export function slideKey(id: string, part: number): string {
  return part === 0 ? id : `${id}.${part + 1}`;
}

/** Duplicate ids as `[index, first index with that id]` pairs, for validation messages. */
export function duplicateSlideIds(ids: readonly (string | undefined)[]): [number, number][] {
  const first = new Map<string, number>();
  const out: [number, number][] = [];
  ids.forEach((id, i) => {
    if (id === undefined) return;
    const seen = first.get(id);
    if (seen === undefined) first.set(id, i);
    else out.push([i, seen]);
  });
  return out;
}
