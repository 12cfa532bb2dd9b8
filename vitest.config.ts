import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// Tests that start servers as child processes and kill them, and measure what survives: they race
// against their own children's start-up and the kernel, so they run on their own after the rest
// rather than beside another file that loads the two cores.
const PROCESS_TESTS = [
  'src/main/cli/db-command.test.ts',
  'src/main/cli/serve-team.test.ts',
  'src/main/cli/team-audit.integration.test.ts',
  'src/main/cli/two-workers.integration.test.ts',
  'src/main/cluster/cluster.test.ts',
  'src/main/config/data-lock.test.ts',
  'src/main/service/branches-kill-resume.integration.test.ts',
  'src/main/service/kill-resume.integration.test.ts',
  'src/main/store/crash-safety.test.ts',
  'src/main/transport/http/upload-crash.test.ts',
];

// The PostgreSQL pass (`npm run test:pg`, and `npm test` through scripts/test-vitest.ts, which sets
// FOLIO_TEST_PG_PASS=1 where PostgreSQL is installed): the runs and service suites again, each core on
// a database of the run's cluster (FOLIO_TEST_STORE=postgres). As projects of the same run they share
// its workers and its cluster with the SQLite pass instead of waiting for it to end; off otherwise, so
// running one file runs it once.
const PG_SUITES = ['src/main/runs/**/*.test.ts', 'src/main/service/**/*.test.ts'];
// Suites of those folders whose subject is not the store: on PostgreSQL they check the same thing again.
const NOT_STORE_SUITES = ['src/main/service/run-python.integration.test.ts'];
const PG_ENV = { FOLIO_TEST_STORE: 'postgres' };
const pgProjects: TestProjectInlineConfiguration[] =
  process.env.FOLIO_TEST_PG_PASS === '1'
    ? [
        { extends: true, test: { name: 'pg', include: PG_SUITES, exclude: [...configDefaults.exclude, ...PROCESS_TESTS, ...NOT_STORE_SUITES], env: PG_ENV, maxWorkers: 2, sequence: { groupOrder: 0 } } },
        { extends: true, test: { name: 'pg-processes', include: PROCESS_TESTS.filter((file) => /^src\/main\/(runs|service)\//u.test(file)), env: PG_ENV, maxWorkers: 1, sequence: { groupOrder: 1 } } },
      ]
    : [];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // One throwaway PostgreSQL cluster per run, for the team-service store.
    globalSetup: ['testing/postgres/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'testing/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...PROCESS_TESTS],
          // Most files wait on LibreOffice, bubblewrap or PostgreSQL: two at once keep both cores busy
          // (vitest's default on two cores is one).
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'processes', include: PROCESS_TESTS, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
      ...pgProjects,
    ],
  },
});
