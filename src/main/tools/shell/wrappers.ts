// Wrappers: commands that run another command given in their arguments (env, nice, timeout,
// xargs, setsid, flock, watch ...). They are peeled off down to the command that really runs, so a
// rule for `rm` also catches `nice -n 5 timeout 10 rm`. Privilege wrappers (sudo, doas) are not
// peeled: they are blocked outright by the rules.
import { firstOperand } from './paths';
import { assignedName, isCodeEnv, unboundedParallel } from './rules-run';
import { MAX_DEPTH } from './scope';
import type { Arg } from './syntax';

export type Unwrapped = { kind: 'argv'; argv: Arg[] } | { kind: 'source'; source: string } | { kind: 'none' };

/** The program's base name as typed (`/usr/bin/rm` → `rm`). */
export function commandName(argv: Arg[]): string {
  const first = argv[0]?.text ?? '';
  return first.split('/').pop() ?? first;
}

/** Peels wrappers (env, nice, timeout, xargs, ...) off a command, down to the command that really runs. */
export function unwrap(argv: Arg[], depth = 0, notes: string[] = []): Unwrapped {
  const first = argv[0];
  if (!first || depth > MAX_DEPTH) return { kind: 'argv', argv };
  if (first.dynamic) return { kind: 'argv', argv };
  const name = commandName(argv).toLowerCase();
  const args = argv.slice(1);
  const inner = (rest: Arg[]): Unwrapped => (rest.length === 0 ? { kind: 'none' } : unwrap(rest, depth + 1, notes));

  switch (name) {
    case 'env': {
      let i = 0;
      for (; i < args.length; i += 1) {
        const a = args[i]?.text ?? '';
        if (a === '-S' || a === '--split-string') return { kind: 'source', source: args.slice(i + 1).map((x) => x.text).join(' ') };
        if (a.startsWith('--split-string=')) return { kind: 'source', source: a.slice('--split-string='.length) };
        if (a.startsWith('-S') && !a.startsWith('--')) return { kind: 'source', source: a.slice(2) };
        if (a === '-u' || a === '-C' || a === '--unset' || a === '--chdir') i += 1;
        else if (!a.startsWith('-') && !/^[A-Za-z_][A-Za-z0-9_]*=/u.test(a)) break;
        const assigned = assignedName(a);
        if (assigned !== null && isCodeEnv(assigned)) notes.push(`sets ${assigned}, through which the command runs another program or loads code`);
      }
      return inner(args.slice(i));
    }
    case 'nice':
      return inner(args.slice(firstOperand(args, { short: 'n', long: ['--adjustment'] })));
    case 'timeout': {
      const duration = firstOperand(args, { short: 'sk', long: ['--signal', '--kill-after'] });
      return inner(args.slice(duration + 1));
    }
    case 'nohup':
    case 'builtin':
    case 'busybox':
    case 'unbuffer':
      return inner(args.slice(firstOperand(args)));
    case 'command': {
      if (args.some((a) => a.text === '-v' || a.text === '-V')) return { kind: 'none' };
      return inner(args.slice(firstOperand(args)));
    }
    case 'exec':
      return inner(args.slice(firstOperand(args, { short: 'a' })));
    case 'stdbuf':
      return inner(args.slice(firstOperand(args, { short: 'ioe', long: ['--input', '--output', '--error'] })));
    case 'ionice':
      return inner(args.slice(firstOperand(args, { short: 'cnp', long: ['--class', '--classdata', '--pid', '--pgid', '--uid'] })));
    case 'time':
      return inner(args.slice(firstOperand(args, { short: 'fo', long: ['--format', '--output'] })));
    case 'chrt':
    case 'taskset': {
      const policyOrMask = firstOperand(args);
      return inner(args.slice(policyOrMask + 1));
    }
    case 'xargs': {
      const start = firstOperand(args, {
        short: 'IinPLldEeas',
        long: ['--max-args', '--max-procs', '--max-lines', '--delimiter', '--eof', '--arg-file', '--replace', '--max-chars'],
      });
      const unbounded = unboundedParallel(args);
      if (unbounded !== null) notes.push(unbounded);
      // xargs appends arguments read from its input; with none given it runs echo.
      return start >= args.length ? { kind: 'none' } : unwrap(args.slice(start), depth + 1, notes);
    }
    case 'setsid':
      // A new session leaves the process group, so a timeout or cancel cannot kill what it starts.
      notes.push('setsid detaches the command from the process group, so it survives a timeout or cancel');
      return inner(args.slice(firstOperand(args)));
    case 'chroot': {
      const newRoot = firstOperand(args, { long: ['--userspec', '--groups'] });
      return inner(args.slice(newRoot + 1));
    }
    case 'unshare':
      return inner(
        args.slice(
          firstOperand(args, {
            short: 'SGRw',
            long: ['--setuid', '--setgid', '--root', '--wd', '--propagation', '--setgroups', '--map-user', '--map-group', '--map-users', '--map-groups'],
          }),
        ),
      );
    case 'flock': {
      const command = args.findIndex((a) => a.text === '-c' || a.text === '--command');
      if (command !== -1) return { kind: 'source', source: args[command + 1]?.text ?? '' };
      const lockFile = firstOperand(args, { short: 'wE', long: ['--timeout', '--wait', '--conflict-exit-code'] });
      return inner(args.slice(lockFile + 1));
    }
    case 'watch': {
      const start = firstOperand(args, { short: 'nq', long: ['--interval', '--differences'] });
      return { kind: 'source', source: args.slice(start).map((a) => a.text).join(' ') };
    }
    default:
      return { kind: 'argv', argv };
  }
}
