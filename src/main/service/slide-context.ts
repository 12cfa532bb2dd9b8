// A person's instruction about slides they selected in a deck's preview, turned into the user
// message the agent reads: which slides (ids and numbers), of which spec and deck, and that every
// other slide must stay as it is. The block is part of the stored message, so later turns, a
// restart and the chat all see what was asked.
import { type SlideContext } from '../../shared/contract';
import { FolioError } from '../../shared/errors';
import { type ArtifactPreview } from '../../shared/contract';

/** "s3 (slide 3)", "s3 (slide 3), s5 (slide 6)" */
function slideList(context: SlideContext): string {
  return context.slides.map((s) => `${s.id} (slide ${s.number})`).join(', ');
}

export function formatSlideRequest(context: SlideContext, instruction: string): string {
  const one = context.slides.length === 1;
  const where = context.spec_path ? `${context.spec_path} (rendered as ${context.artifact_path})` : `the deck ${context.artifact_path} (rendered from an inline spec)`;
  const render = context.spec_path ? `then call render_deck with spec_path "${context.spec_path}"` : 'then render the deck again with the same slide ids';
  return [
    `Change only ${one ? 'slide' : 'slides'} ${slideList(context)} of ${where}: ${instruction.trim()}`,
    '',
    `Edit only ${one ? 'that slide' : 'those slides'} in the spec; keep every other slide and every slide id exactly as it is, ${render}.`,
  ].join('\n');
}

/**
 * The context checked against the deck it names: a deck rendered by Folio, holding every selected
 * slide id. Its spec path is taken from the deck's own record when it has one.
 */
export function checkSlideContext(context: SlideContext, preview: ArtifactPreview): SlideContext {
  if (preview.kind !== 'deck') {
    throw new FolioError('invalid_input', `${context.artifact_path} is not a deck Folio rendered; its slides cannot be named.`);
  }
  const known = new Set(preview.spec.slides.map((s) => s.id).filter(Boolean));
  const unknown = context.slides.map((s) => s.id).filter((id) => !known.has(id));
  if (unknown.length > 0) throw new FolioError('invalid_input', `${context.artifact_path} has no slide ${unknown.join(', ')}`);
  return { ...context, spec_path: preview.version?.spec_path ?? context.spec_path };
}
