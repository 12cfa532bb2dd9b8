// Child process for the restart-mid-indexing test: adds library files on a data folder and waits to
// be SIGKILLed. Prints `INDEXING <path>` once a file is being extracted.
import { makeCore } from '../service/core-test-kit';

const [dataDir, ...paths] = process.argv.slice(2);
const core = await makeCore(dataDir, { PATH: process.env.PATH });
await core.handlers.addLibraryFiles({ project_id: 'personal', paths });
let reported = false;
const timer = setInterval(() => {
  void core.ctx.store.library.queued().then((rows) => {
    const busy = rows.find((f) => f.status === 'indexing');
    if (busy && !reported) {
      reported = true;
      process.stdout.write(`INDEXING ${busy.path}\n`);
      clearInterval(timer);
      setInterval(() => undefined, 1000);
    }
  });
}, 5);
