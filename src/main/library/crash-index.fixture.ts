// Child process for the restart-mid-indexing test: adds library files on a data folder and waits to
// be SIGKILLed. Prints `INDEXING <path>` once a file is being extracted.
import { makeCore } from '../service/core-test-kit';

const [dataDir, ...paths] = process.argv.slice(2);
const core = makeCore(dataDir, { PATH: process.env.PATH });
await core.handlers.addLibraryFiles({ project_id: 'personal', paths });
const timer = setInterval(() => {
  const busy = core.ctx.store.library.queued().find((f) => f.status === 'indexing');
  if (busy) {
    process.stdout.write(`INDEXING ${busy.path}\n`);
    clearInterval(timer);
    setInterval(() => undefined, 1000);
  }
}, 5);
