// The canonical text of a command, for grants: "Allow for this task" on a command covers that exact
// command, whatever its spacing or comments, and nothing else. mvdan/sh prints the parsed tree back
// (quoting kept, comments and redundant blanks dropped), so `npm  test` and `npm test` are one grant
// while `npm test; rm -rf x` is another.
import { parseShell, shSyntax, ShellParseError } from './syntax';

export function normalizeCommand(command: string): string {
  try {
    return shSyntax().NewPrinter().Print(parseShell(command)).trim();
  } catch (err) {
    // Unparsable commands are refused by the classifier anyway; the raw text is still exact.
    if (err instanceof ShellParseError) return command.trim();
    throw err;
  }
}
