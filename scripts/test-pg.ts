// `npm run test:pg`: the runs and service suites again, on PostgreSQL (FOLIO_TEST_STORE=postgres:
// every core gets a database of the run's throwaway cluster). Where PostgreSQL is not installed the
// pass is skipped, saying why, rather than failing `npm test` on a desktop developer's machine.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresSkipReason } from '../testing/postgres/cluster';

const PG_SUITES = ['src/main/runs', 'src/main/service'];

const skip = process.env.FOLIO_TEST_NO_POSTGRES ? 'PostgreSQL tests were switched off (FOLIO_TEST_NO_POSTGRES)' : postgresSkipReason();
if (skip) {
  process.stdout.write(`skipping the PostgreSQL pass: ${skip}\n`);
  process.exit(0);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const vitest = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...PG_SUITES, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, FOLIO_TEST_STORE: 'postgres' },
});
process.exit(vitest.status ?? 1);
