// What a program printed, out of the report a code-running tool gives the model: the report ends with
// lines Folio adds for the model (how the run ended, the sandbox's limits, the network note, the files
// written), in English. A screen in another language shows the program's own output only; the card's
// summary already says how the run ended.

/** Tools whose result is a program's output followed by Folio's lines (tools/program-run.ts). */
const PROGRAM_TOOLS: ReadonlySet<string> = new Set(['shell', 'run_python', 'run_script']);

const FOLIO_LINE = /^(\[(exit code |timed out after |cancelled after |killed by |stopped by the sandbox:|no space left:|The network is off)|Files written: |\(no output\)$)/u;

export function isProgramTool(name: string): boolean {
  return PROGRAM_TOOLS.has(name);
}

/** The output without the lines Folio added at its end ('' when the program printed nothing). */
export function programOutput(report: string): string {
  const lines = report.replace(/\n+$/u, '').split('\n');
  while (lines.length > 0 && FOLIO_LINE.test(lines.at(-1) ?? '')) lines.pop();
  return lines.join('\n');
}
