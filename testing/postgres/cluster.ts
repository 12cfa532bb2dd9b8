// A throwaway PostgreSQL cluster for tests and benchmarks: initdb into a temp folder,
// start on a free loopback port, stop and delete afterwards. PostgreSQL refuses to run as root, so
// when the tests run as root (CI) the cluster runs as the unprivileged `nobody`.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { freePort } from '../http-helpers';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PgCluster {
  /** Superuser connection string to the `postgres` database. */
  url: string;
  port: number;
  /** The postmaster's process id (its backends are its children), for a bench's CPU accounting. */
  pid(): number;
  stop(): Promise<void>;
}

const NOBODY = 65534;

/** The folder with initdb, pg_ctl and postgres, or null when PostgreSQL is not installed. */
export function postgresBinDir(): string | null {
  const candidates: string[] = [];
  if (process.env.FOLIO_PG_BIN) candidates.push(process.env.FOLIO_PG_BIN);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    for (const v of readdirSync(debian).sort((a, b) => Number(b) - Number(a))) candidates.push(join(debian, v, 'bin'));
  }
  candidates.push('/usr/local/bin', '/usr/bin');
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) ?? null;
}

/** Why a PostgreSQL test must skip, or null when it can run. */
export function postgresSkipReason(): string | null {
  return postgresBinDir() ? null : 'PostgreSQL is not installed (initdb/pg_ctl not found; `.ci/run` installs the Debian package `postgresql`)';
}


function runAs(): { uid?: number; gid?: number } {
  return process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
}

export interface PgClusterOptions {
  /** Keep PostgreSQL's crash-safe defaults (fsync, synchronous_commit, full_page_writes on), for a
   * benchmark's fair number; tests leave them off, as nothing survives the run anyway. */
  durable?: boolean;
}

export async function startPgCluster(options: PgClusterOptions = {}): Promise<PgCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error(postgresSkipReason()!);
  const root = mkdtempSync(join(tmpdir(), 'folio-pg-'));
  const data = join(root, 'data');
  const ids = runAs();
  if (ids.uid !== undefined) {
    chownSync(root, ids.uid, ids.gid!);
    chmodSync(root, 0o700);
  }
  const init = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'], { ...ids, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  const port = await freePort();
  const fast = options.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const opts = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1${fast} -c max_connections=200`;
  const start = spawnSync(join(bin, 'pg_ctl'), ['-D', data, '-o', opts, '-l', join(root, 'log'), '-w', '-t', '60', 'start'], { ...ids, encoding: 'utf8' });
  if (start.status !== 0) throw new Error(`pg_ctl start failed: ${start.stderr || start.stdout}`);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    pid: () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
    async stop() {
      if (stopped) return;
      stopped = true;
      await new Promise<void>((resolve) => {
        const child = spawn(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], { ...ids, stdio: 'ignore' });
        child.on('exit', () => resolve());
        child.on('error', () => resolve());
      });
      rmSync(root, { recursive: true, force: true });
    },
  };
}
