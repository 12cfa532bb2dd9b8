// What a finished tool call did, in a sentence for a person in the UI language. A tool's output is
// written for the model (English, paths, exit codes, instructions); the app's tool card and the CLI's
// chat show this instead (the card keeps the output itself behind a toggle).
import type { ToolFailure } from './contract/tool-calls';
import { FAILURES_NAMING_A_PATH } from './locales/tools';
import type { Say } from './locales/say';
import { parseToolArgs } from './tool-args';
import { mcpParts } from './tool-names';
import { DENIED_RESULT, type ToolOutcome } from './tool-outcome';

export interface ToolSummaryInput {
  name: string;
  /** The call's arguments as the model wrote them (JSON text). */
  arguments: string;
  outcome: ToolOutcome;
  /** The start of the stored result. */
  preview: string;
  /** Why it failed, as the run recorded it (absent for calls recorded before failures were typed). */
  failure?: ToolFailure;
}

/** Tools whose success is told by a sentence of their own, with the argument the sentence names. */
const SENTENCES: Record<string, 'path' | 'url' | 'query' | 'name' | null> = {
  read: 'path',
  write: 'path',
  edit: 'path',
  write_spreadsheet: 'path',
  grep: 'query',
  web_fetch: 'url',
  web_search: 'query',
  search_library: 'query',
  load_skill: 'name',
  skill_create: 'name',
  propose_outline: null,
  propose_plan: null,
  extract_figures: null,
  ocr: null,
};

const EXIT = /\[exit code (\d+|unknown) · ([\d.]+) s\]/u;
/** "Rendered <path> from <source>: …": the path may have spaces (a title as the file name). */
const RENDERED = /^Rendered (.+?\.[A-Za-z0-9]+) from /u;
/** revise_document's first line: the copy it wrote and how many of the edits it could place. */
const REVISED = /^Wrote (.+?\.docx): (\d+) of (\d+) edit/u;

export function toolSummary(input: ToolSummaryInput, t: Say): string {
  // Denied by the person, or blocked by Folio's rules (its result then says why, for the model).
  if (input.outcome === 'denied') return input.preview.startsWith(DENIED_RESULT) || input.preview === '' ? t('toolSummary.denied', {}) : t('toolSummary.blocked', {});
  if (input.outcome === 'not-run') return t('toolSummary.notRun', {});
  const args = parseToolArgs(input.arguments);
  const arg = (...keys: string[]): string => {
    if (!args.ok) return '';
    for (const key of keys) {
      const value = args.value[key];
      if (typeof value === 'string' && value !== '') return value;
    }
    return '';
  };
  const exit = EXIT.exec(input.preview);
  if (input.outcome === 'error') {
    if (input.failure) return failureSentence(input.failure, t);
    if (exit && exit[1] !== 'unknown') return t('toolSummary.exitFailed', { code: exit[1] });
    return t('toolSummary.failed', {});
  }
  const mcp = mcpParts(input.name);
  if (mcp) return t('toolSummary.mcp', { server: mcp.server });
  switch (input.name) {
    case 'glob':
      return input.preview.startsWith('No files match') ? t('toolSummary.globNone', {}) : t('toolSummary.glob', { count: fileCount(input.preview) });
    case 'shell':
    case 'run_python':
    case 'run_script':
      return exit ? t('toolSummary.ran', { seconds: exit[2] }) : t('toolSummary.ranPlain', {});
    case 'revise_document': {
      const revised = REVISED.exec(input.preview);
      return revised ? t('toolSummary.revised', { path: revised[1], applied: Number(revised[2]), total: Number(revised[3]) }) : t('toolSummary.revise_document', {});
    }
    case 'render_deck':
    case 'render_document': {
      const made = RENDERED.exec(input.preview)?.[1];
      return made ? t('toolSummary.rendered', { path: made }) : t(`toolSummary.${input.name}`, {});
    }
    default: {
      const needs = SENTENCES[input.name];
      if (needs === undefined) return t('toolSummary.done', {});
      const values = { path: arg('path', 'file', 'file_path'), url: arg('url'), query: arg('query', 'pattern'), name: arg('name', 'skill') };
      if (needs !== null && values[needs] === '') return t('toolSummary.done', {});
      if (input.name === 'grep' && input.preview.startsWith('No matches for')) return t('toolSummary.grepNone', values);
      if (input.name === 'search_library' && input.preview.startsWith('No library pages match')) return t('toolSummary.searchLibraryNone', values);
      return t(`toolSummary.${input.name}`, values);
    }
  }
}

const NAMES_PATH: ReadonlySet<ToolFailure['kind']> = new Set(FAILURES_NAMING_A_PATH);

/** Why a call failed, in a sentence of the person's language (the model read the tool's English). */
export function failureSentence(failure: ToolFailure, t: Say): string {
  const count: Record<string, number> = failure.count === undefined ? {} : { count: failure.count };
  if (failure.path !== undefined && NAMES_PATH.has(failure.kind)) return t(`toolFailure.${failure.kind}_path`, { path: failure.path, ...count });
  return t(`toolFailure.${failure.kind}`, { ...(failure.code === undefined ? {} : { code: failure.code }), ...(failure.seconds === undefined ? {} : { seconds: failure.seconds }), ...count });
}

/** glob lists one file a line, and says how many there were when it lists only the first ones. */
function fileCount(text: string): number {
  const total = /\(Showing the first \d+ of (\d+) files/u.exec(text)?.[1];
  if (total) return Number(total);
  return text.split('\n').filter((line) => line.trim() !== '').length;
}
