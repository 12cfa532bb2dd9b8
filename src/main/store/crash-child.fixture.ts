// Child process for crash-safety.test.ts: appends messages as fast as it can through the real store and
// prints each seq only after append() has returned, i.e. after the commit. The parent SIGKILLs it.
import { openStore } from './index';

const [dbPath, taskId] = process.argv.slice(2);
if (dbPath === undefined || taskId === undefined) throw new Error('usage: crash-child <dbPath> <taskId>');

const store = openStore(dbPath);
// Bounded so an orphaned child cannot run forever if the parent dies before killing it.
for (let i = 0; i < 200_000; i++) {
  const message = store.messages.append({
    id: `m${process.pid}_${i}`,
    task_id: taskId,
    run_id: null,
    role: 'assistant',
    content: `chunk ${i} `.repeat(200),
  });
  // Writes to a pipe are synchronous on Linux, so the ack is out before the next append starts.
  process.stdout.write(`${message.seq}\n`);
}
store.close();
