// A person's instruction about slides they selected in a deck's preview: the context checked against
// the deck, and the user message the agent reads (written in shared/slide-request.ts, where the chat
// reads it back). The block is part of the stored message, so later turns, a restart and the chat
// all see what was asked.
import { type SlideContext } from '../../shared/contract';
import { FolioError } from '../../shared/errors';
import { type ArtifactPreview } from '../../shared/contract';

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
