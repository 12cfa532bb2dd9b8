// What a program printed, out of the report a code-running tool gives the model: the report ends with
// lines Folio adds for the model (how the run ended, the sandbox's limits, the network note, the files
// written), in English. A screen in another language shows the program's own output only; the card's
// summary already says how the run ended. Runs recorded with their facts are cut where the facts say
// (programText); older ones by Folio's known lines (programOutput).
import type { ProgramFacts } from '../../shared/contract/tool-calls';

/** Tools whose result is a program's output followed by Folio's lines (tools/program-run.ts). */
const PROGRAM_TOOLS: ReadonlySet<string> = new Set(['shell', 'run_python', 'run_script']);

const FOLIO_LINE = /^(\[(exit code |timed out after |cancelled after |killed by |stopped by the sandbox:|no space left:|The network is off)|Files written: |\(no output\)$)/u;

/**
 * What a program printed, read from the run's recorded facts: the start of the result up to where
 * Folio's lines begin, with Folio's note about a left-out middle replaced by `omitted` (the person's
 * words for it). `text` may be the stored preview, shorter than the whole result.
 */
export function programText(text: string, facts: ProgramFacts, omitted: (bytes: number) => string): string {
  const own = text.slice(0, facts.output_chars);
  const gap = facts.omitted;
  if (!gap || gap.from >= own.length) return own;
  return `${own.slice(0, gap.from)}${omitted(gap.bytes)}${own.slice(gap.to)}`;
}

export function isProgramTool(name: string): boolean {
  return PROGRAM_TOOLS.has(name);
}

/** The output without the lines Folio added at its end ('' when the program printed nothing). */
export function programOutput(report: string): string {
  const lines = report.replace(/\n+$/u, '').split('\n');
  while (lines.length > 0 && FOLIO_LINE.test(lines.at(-1) ?? '')) lines.pop();
  return lines.join('\n');
}
