// The command line's own messages (usage, errors, task lists) in the terminal's language: the `cli`
// locale in src/shared/locales/cli, read as the chat reads its own. An error is said as one line,
// never a stack or a dump: a mistake on the command line by what was wrong, a FolioError by its
// message, a missing file by its path.
import en from '../../shared/locales/cli/en.json';
import zhCN from '../../shared/locales/cli/zh-CN.json';
import { FolioError } from '../../shared/errors';
import type { ConfigWarning } from '../../shared/contract';
import { configFindingText } from '../../shared/config-finding-text';
import type { DatabaseCorruptError } from '../store';
import { type ChatLanguage, createTranslate, resolveChatLanguage, type Translate } from './chat/i18n';

export type { Translate } from './chat/i18n';

/** A mistake on the command line, named by its message in the `cli` locale. */
export class CliInputError extends FolioError {
  constructor(
    readonly key: string,
    readonly vars: Record<string, string | number> = {},
  ) {
    super('invalid_input', key, { name: 'CliInputError' });
  }
}

/** The terminal's language (LC_ALL, LC_MESSAGES, LANG), as a terminal program's messages follow it. */
export function cliLanguage(env: NodeJS.ProcessEnv = process.env): ChatLanguage {
  return resolveChatLanguage(undefined, env);
}

export function cliTranslate(env: NodeJS.ProcessEnv = process.env): Promise<Translate> {
  return createTranslate(cliLanguage(env), { en, 'zh-CN': zhCN });
}

/** The quoted name in one of Node's parseArgs messages ("Unknown option '--x'"). */
function quoted(message: string): string {
  return /'([^']+)'/.exec(message)?.[1] ?? message;
}

/**
 * What the person reads when a command fails; `usage` when the command line itself was wrong, so
 * the line that points to --help follows.
 */
export function describeCliError(err: unknown, t: Translate): { text: string; usage: boolean } {
  if (err instanceof CliInputError) return { text: t(err.key, err.vars), usage: true };
  const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
  const message = err instanceof Error ? err.message : String(err);
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return { text: t('errors.unknownOption', { option: quoted(message) }), usage: true };
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return { text: t('errors.missingValue', { option: quoted(message).split(' ')[0] ?? '' }), usage: true };
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return { text: t('errors.unexpectedArgument', { argument: quoted(message) }), usage: true };
    case 'ENOENT': {
      const path = (err as { path?: unknown }).path;
      if (typeof path === 'string') return { text: t('errors.noSuchFile', { path }), usage: true };
    }
  }
  if (err instanceof FolioError) return { text: t('errors.error', { message }), usage: false };
  return { text: t('errors.internal', { message }), usage: false };
}

/**
 * What is wrong with the database and whether a backup can be restored: the error's own words in
 * English (they carry the check's detail), the same said from its kind in another language.
 */
export function describeCorruption(err: DatabaseCorruptError, t: Translate, env: NodeJS.ProcessEnv = process.env): string {
  if (cliLanguage(env) === 'en') return err.message;
  const when = err.backup ? new Date(err.backup.created_at).toISOString().slice(0, 16).replace('T', ' ') : '';
  return `${t('errors.corrupt', { path: err.dbPath, what: t(`errors.corruptKind.${err.kind}`) })}${err.backup ? t('errors.corruptBackup', { when }) : t('errors.corruptNoBackup')}`;
}

/** How many terminal cells `text` takes: a CJK character takes two. */
export function cellWidth(text: string): number {
  return [...text].reduce((n, c) => n + (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(c) ? 2 : 1), 0);
}

/** Columns as wide on screen as `width`: a CJK character takes two cells. */
export function padCells(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - cellWidth(text)));
}

/** A model profile or skill file problem as one terminal line: the file, then what is wrong with it. */
export function configWarningLine(warning: ConfigWarning, t: Translate): string {
  return t('warnings.line', { source: warning.source, text: configFindingText(warning.finding, warning.detail, (key, vars) => t(key, vars)) });
}
