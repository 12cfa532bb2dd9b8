// What a person reads for an error: its kind in their language, what to do about it, and the
// server's own words. Main's messages are English (they also reach logs and the CLI); on an English
// screen they are the most precise text and are shown as they are, on any other screen the localized
// explanation is shown and the English text only on request, never as the message itself.
import type { TFunction } from 'i18next';
import { errorHelpKey } from '../../shared/locales/errors';
import type { ErrorInfo } from '../state/notices';

export interface ErrorView {
  /** The kind of error ("Model provider error" / "模型服务出错"). */
  title: string;
  /** What happened and what to do, in the UI language. */
  text: string;
  /** The server's own message when it is not already the text (kept for a look on request). */
  detail: string | null;
}

export function errorView(error: ErrorInfo, t: TFunction, language: string): ErrorView {
  const title = t(`errorKind.${error.code}`, { defaultValue: t('errorKind.unknown') });
  const message = error.message.trim();
  if (language.startsWith('en') && message !== '') return { title, text: message, detail: null };
  const help = t(errorHelpKey(error), { defaultValue: t('errorHelp.unknown') });
  return { title, text: withoutTitleSentence(help, title), detail: message === '' ? null : message };
}

/**
 * The explanation without a first sentence that only says the title again: the title is shown in
 * bold right before it ("无法连接模型服务 无法连接模型服务。请检查…" would say it twice). The shared
 * explanation keeps that sentence, since the terminal shows it without a title.
 */
function withoutTitleSentence(help: string, title: string): string {
  const first = /^(.+?)[。．.！!]\s*/u.exec(help);
  if (first === null || first[0].length === help.length) return help;
  return first[1].trim().toLowerCase() === title.trim().toLowerCase() ? help.slice(first[0].length) : help;
}
