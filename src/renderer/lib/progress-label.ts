// A running tool's progress step in the UI language. The tools report a step from the contract,
// never words: a new step fails to compile here until it has its sentence.
import type { TFunction } from 'i18next';
import type { ProgressOf, ProgressStep } from '../../shared/contract';

export const PROGRESS_STEP_KEYS: Record<ProgressStep, string> = {
  render_deck: 'chat.progressStep.renderDeck',
  check_slides: 'chat.progressStep.checkSlides',
  render_document: 'chat.progressStep.renderDocument',
  layout_document: 'chat.progressStep.layoutDocument',
  extract_text: 'chat.progressStep.extractText',
  ocr: 'chat.progressStep.ocr',
  extract_figures: 'chat.progressStep.extractFigures',
  start_mcp_servers: 'chat.progressStep.startMcpServers',
};

export function progressLabel({ step, file }: ProgressOf, t: TFunction): string {
  return t(PROGRESS_STEP_KEYS[step], { file: file ?? '' });
}
