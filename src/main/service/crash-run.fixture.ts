// Child process for the kill-and-resume test: starts a run on a data folder and keeps going until
// the parent SIGKILLs it. Prints `RUN <task> <run>` once the run has started, `ASKED` once a call waits for a yes.
import { makeCore, waitForEvent } from './core-test-kit';
import { normalizeCommand } from '../tools/shell/normalize';

const [dataDir] = process.argv.slice(2);
const core = await makeCore(dataDir, { FAKE_API_KEY: 'sk-child', PATH: process.env.PATH });
const task = await core.handlers.createTask({ mode: 'general' });
// Grants cover the exact command (the one the kill-resume test scripts).
await core.ctx.store.grants.grant(task.id, 'shell', normalizeCommand('echo ran >> work/count.txt; sleep 30'));
await core.handlers.updateTask({ task_id: task.id, approval_mode: 'auto' });
const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'do the two steps' });
process.stdout.write(`RUN ${task.id} ${run_id}\n`);
// The test that kills a run waiting for a yes waits for this line.
void waitForEvent(core, task.id, run_id, 'approval_required').then(() => process.stdout.write('ASKED\n'));
setInterval(() => undefined, 1000);
