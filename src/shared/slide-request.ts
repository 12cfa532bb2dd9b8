// A person's instruction about slides they selected in a deck's preview, as the user message the
// agent reads (which slides, of which spec and deck, and that every other slide must stay as it
// is), and back: the chat shows such a message as a chip "Slide 3: <instruction>", never the
// model-facing wording. Both directions live here so the two cannot drift apart.
import type { SlideContext } from './contract';

/** "s3 (slide 3)", "s3 (slide 3), s5 (slide 6)" */
function slideList(context: SlideContext): string {
  return context.slides.map((s) => `${s.id} (slide ${s.number})`).join(', ');
}

const KEEP_THE_REST = 'keep every other slide and every slide id exactly as it is, ';

export function formatSlideRequest(context: SlideContext, instruction: string): string {
  const one = context.slides.length === 1;
  const where = context.spec_path ? `${context.spec_path} (rendered as ${context.artifact_path})` : `the deck ${context.artifact_path} (rendered from an inline spec)`;
  const render = context.spec_path ? `then call render_deck with spec_path "${context.spec_path}"` : 'then render the deck again with the same slide ids';
  return [`Change only ${one ? 'slide' : 'slides'} ${slideList(context)} of ${where}: ${instruction.trim()}`, '', `Edit only ${one ? 'that slide' : 'those slides'} in the spec; ${KEEP_THE_REST}${render}.`].join('\n');
}

/** What the person asked, read back from a stored slide request. */
export interface SlideRequest {
  /** The selected slides' numbers, in the order they were named. */
  slides: number[];
  instruction: string;
}

const REQUEST =
  /^Change only slides? ((?:[A-Za-z0-9_-]+ \(slide \d+\))(?:, [A-Za-z0-9_-]+ \(slide \d+\))*) of .+?: ([\s\S]*)\n\nEdit only (?:that slide|those slides) in the spec; keep every other slide and every slide id exactly as it is, (?:then call render_deck with spec_path "[^"\n]*"|then render the deck again with the same slide ids)\.$/u;

/** The slides and instruction of a message `formatSlideRequest` wrote; null for any other text. */
export function parseSlideRequest(content: string): SlideRequest | null {
  const match = REQUEST.exec(content);
  if (!match) return null;
  const slides = [...match[1].matchAll(/\(slide (\d+)\)/gu)].map((m) => Number(m[1]));
  return { slides, instruction: match[2] };
}
