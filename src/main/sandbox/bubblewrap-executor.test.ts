import { BubblewrapExecutor } from './bubblewrap-executor';
import { executorContract } from './executor-contract.test-support';
import { sandboxStatus } from './sandbox';

const status = sandboxStatus();

// Without bwrap the executor runs programs unsandboxed (today's fallback, reported by its status):
// what it still guarantees (exit codes, the environment, timeouts, cancel, the output cap) is checked.
executorContract({
  name: 'bubblewrap',
  skip: null,
  isolationSkip: status.active ? null : `bubblewrap (bwrap) is unavailable (${status.reason})`,
  make: () => new BubblewrapExecutor(),
  node: process.execPath,
});
