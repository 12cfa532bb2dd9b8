// The spinner's line while a tool reports progress: its step in the chat's language. The tools
// report a step from the contract, never words: a new step fails to compile here until it has one.
import type { ProgressOf, ProgressStep } from '../../../shared/contract';
import type { Translate } from './i18n';

export const PROGRESS_STEP_KEYS: Record<ProgressStep, string> = {
  render_deck: 'progress.renderDeck',
  check_slides: 'progress.checkSlides',
  render_document: 'progress.renderDocument',
  layout_document: 'progress.layoutDocument',
  extract_text: 'progress.extractText',
  ocr: 'progress.ocr',
  extract_figures: 'progress.extractFigures',
  start_mcp_servers: 'progress.startMcpServers',
};

export interface ProgressState {
  of: ProgressOf;
  done: number;
  total: number | null;
}

export function progressLine({ of, done, total }: ProgressState, t: Translate): string {
  const step = t(PROGRESS_STEP_KEYS[of.step], { file: of.file ?? '' });
  return total === null ? step : t('progress.count', { step, done, total });
}
