// Child process for the branch kill-and-resume test: answers one message, then regenerates the
// answer and keeps going until the parent SIGKILLs it. Prints `RUN <task> <run>` once the
// regenerated run has started.
import { collect, makeCore } from './core-test-kit';
import { normalizeCommand } from '../tools/shell/normalize';

const [dataDir] = process.argv.slice(2);
const core = await makeCore(dataDir, { FAKE_API_KEY: 'sk-child', PATH: process.env.PATH });
const task = await core.handlers.createTask({ mode: 'general' });
// Grants cover the exact command (the one the test scripts).
await core.ctx.store.grants.grant(task.id, 'shell', normalizeCommand('echo ran >> work/count.txt; sleep 30'));
await core.handlers.updateTask({ task_id: task.id, approval_mode: 'auto' });
const first = await core.handlers.sendMessage({ task_id: task.id, content: 'count once' });
await collect(core, task.id, first.run_id);
const { run_id } = await core.handlers.regenerate({ task_id: task.id });
process.stdout.write(`RUN ${task.id} ${run_id}\n`);
setInterval(() => undefined, 1000);
