// `npm run test:vitest` (part of `npm test`): the unit and integration tests on SQLite and, in the
// same vitest run, the PostgreSQL pass (vitest.config's `pg` projects: the runs and service suites
// again, every core on a database of the run's throwaway cluster). `npm run test:pg` (`--pg-only`)
// runs the PostgreSQL pass alone. Where PostgreSQL is not installed that pass is skipped, saying why,
// rather than failing `npm test` on a desktop developer's machine. Other arguments go to vitest.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresSkipReason } from '../testing/postgres/cluster';

const args = process.argv.slice(2);
const pgOnly = args.includes('--pg-only');
const vitestArgs = args.filter((arg) => arg !== '--pg-only');

const skip = process.env.FOLIO_TEST_NO_POSTGRES ? 'PostgreSQL tests were switched off (FOLIO_TEST_NO_POSTGRES)' : postgresSkipReason();
if (skip) {
  process.stdout.write(`skipping the PostgreSQL pass: ${skip}\n`);
  if (pgOnly) process.exit(0);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const projects = pgOnly ? ['--project', 'pg', '--project', 'pg-processes'] : [];
const vitest = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...projects, ...vitestArgs], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ...(skip ? {} : { FOLIO_TEST_PG_PASS: '1' }) },
});
process.exit(vitest.status ?? 1);
