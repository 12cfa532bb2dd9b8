// The deck outline as the model reads it in its instructions: the person may have edited, reordered,
// added or deleted rows, so every later turn works from the stored outline, not from what the
// model once proposed.
import type { DeckOutline } from '../../shared/specs/deck-outline';
import { OUTLINE_PATH } from '../workspace/outline-file';

export function outlineForPrompt(outline: DeckOutline): string {
  const head =
    outline.status === 'approved'
      ? `## Approved deck outline\nThe person approved this outline (${OUTLINE_PATH}) on ${new Date(outline.approved_at ?? outline.updated_at).toISOString().slice(0, 16).replace('T', ' ')} UTC. ` +
        'Write the deck spec from it: one spec slide per row, in this order, each with the row\'s `id` as the slide\'s `id`, ' +
        'the row\'s layout, its title as the slide title, its points as the substance, and its sources cited in the notes. ' +
        'Change the storyline only when the person asks; if a row cannot work as planned, say so.'
      : `## Proposed deck outline (waiting for the person)\nThis outline (${OUTLINE_PATH}) is not approved yet; the person may have edited it. ` +
        'render_deck refuses to run until they approve it. If they ask for changes, call propose_outline again with the changed rows (keep the ids).';
  const rows = outline.slides.map((row, i) => {
    const lines = [`${i + 1}. [${row.id}] ${row.layout}: ${row.title}`];
    for (const point of row.points) lines.push(`   - ${point}`);
    if (row.sources.length > 0) lines.push(`   Sources: ${row.sources.map((s) => (s.pages ? `${s.file} p. ${s.pages}` : s.file)).join('; ')}`);
    return lines.join('\n');
  });
  return `${head}\n\n${rows.join('\n')}`;
}
