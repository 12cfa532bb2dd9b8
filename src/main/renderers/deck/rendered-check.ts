// A rendered deck's report, checked against the slides as LibreOffice draws them: the plan says
// where every box is, the PDF says where every word landed. The agent's render_deck and
// `folio render` both go through here so they report the same thing.
import { type QualityReport } from '../../../shared/specs/deck';
import { type DeckPlan } from '../../../shared/specs/deck-plan';
import { planFooterTop, planToVerifyInput } from './plan/verify-input';
import { type FixedText, mergeVerification, verifyRenderedDeck, verifyRenderedPdf, type VerifyInput, type VerifyOptions, type VerifyResult } from './verify';

export interface RenderedDeck {
  /** The .pptx written by renderDeck. */
  path: string;
  plan: DeckPlan;
  report: QualityReport;
  /** Text an imported template's master and layouts draw on every slide (not the deck's own). */
  fixedText?: readonly FixedText[];
}

/**
 * The deck's report with the rendered check's findings merged in and `checked` set. Never throws for
 * a missing or failing LibreOffice (the report is then marked estimated); rejects only when
 * `opts.signal` aborts.
 */
export async function checkRenderedDeck(deck: RenderedDeck, opts: VerifyOptions = {}): Promise<{ report: QualityReport; verification: VerifyResult }> {
  const verification = await verifyRenderedDeck(verifyInput(deck), opts);
  return { report: mergeVerification(deck.report, verification), verification };
}

/** The same, from the PDF LibreOffice already made of the deck (tests convert several decks in one run). */
export async function checkRenderedPdf(deck: RenderedDeck, pdf: Uint8Array): Promise<{ report: QualityReport; verification: VerifyResult }> {
  const verification = await verifyRenderedPdf(verifyInput(deck), pdf);
  return { report: mergeVerification(deck.report, verification), verification };
}

function verifyInput(deck: RenderedDeck): VerifyInput {
  return {
    pptxPath: deck.path,
    size: deck.plan.size,
    footerTop: planFooterTop(deck.plan),
    slides: planToVerifyInput(deck.plan),
    ...(deck.fixedText ? { fixedText: deck.fixedText } : {}),
  };
}
