// What every rule of the classifier reads and writes while one command line is judged: the verdict
// so far, where the command runs, and what the line itself has written (for write-then-run).
import type { Arg } from './syntax';

export type CommandClass = 'blocked' | 'destructive' | 'standard';

export interface Classification {
  class: CommandClass;
  /** Why, for the strongest class only (empty for standard). */
  reasons: string[];
}

const rank: Record<CommandClass, number> = { standard: 0, destructive: 1, blocked: 2 };

/** Deeper nesting (substitutions in wrappers in traps ...) is not followed: rated destructive. */
export const MAX_DEPTH = 12;

export class Verdict {
  level: CommandClass = 'standard';
  private readonly reasons = new Map<CommandClass, Set<string>>();

  add(level: CommandClass, reason: string): void {
    if (rank[level] > rank[this.level]) this.level = level;
    let set = this.reasons.get(level);
    if (!set) this.reasons.set(level, (set = new Set()));
    set.add(reason);
  }

  result(): Classification {
    return { class: this.level, reasons: this.level === 'standard' ? [] : [...(this.reasons.get(this.level) ?? [])] };
  }
}

export interface Scope {
  verdict: Verdict;
  /** The folder the command runs in; needed to tell whether a write replaces an existing file. */
  cwd: string | undefined;
  /** Folders no argument may point into (Folio's data folder), unless inside `cwd`. */
  protectedPaths: readonly string[];
  depth: number;
  /** Files this command line writes, resolved: running one of them later in the line runs unseen code. */
  written: Set<string>;
  /** Judges shell source found inside an argument (trap, alias, flock -c, env -S); given the deeper scope. */
  judgeSource(source: string, scope: Scope): void;
  /** Judges a command found inside another's arguments (find -exec); given the deeper scope. */
  judgeArgv(argv: Arg[], scope: Scope): void;
}

/** The same scope one level deeper, for nested source and commands. */
export function deeper(scope: Scope): Scope {
  return { ...scope, depth: scope.depth + 1 };
}
