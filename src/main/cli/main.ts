// `folio`: the command line. `serve` runs web mode (HTTP /v1 + SSE + the renderer on 127.0.0.1);
// the other commands use the same core in-process.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { findResourcesDir, resolveDataDir } from '../config/app-paths';
import { createCore, type Core } from '../service/create-core';
import { createRecoverableCore } from '../service/recovery-core';
import { startHttpServer } from '../transport/http';
import { createJsonLogger, loadServiceConfig, type ServiceConfig } from '../tenancy';
import { createServiceCore } from './service-core';
import { startTeamHttpServer } from './team-server';
import { FolioError } from '../../shared/errors';
import { DatabaseCorruptError } from '../store';
import { TaskStatus } from '../../shared/contract';

const USAGE = `Usage: folio <command> [options]

Commands:
  serve [--port N] [--recover]
                              Start web mode on 127.0.0.1 (token from FOLIO_TOKEN or generated);
                              --recover: with a damaged database, offer the restore in the browser
  serve --multi-tenant [--platform-key K] [--jwt-secret S | --jwks-url U] [--database URL]
        [--storage-root DIR] [--host H] [--port N] [--public-host NAME]... [--worker-id ID]
        [--requests-per-minute N] [--shutdown-grace-ms MS] [--jwt-issuer I] [--jwt-audience A]
                              Run the team service (each flag also as FOLIO_* in the environment;
                              see docs/deploy.md); logs are JSON lines on stdout
  chat [--url U --token T] [--resume last|ID] [--mode general|ppt|proposal|coding] [--desc TEXT]
       [--approvals ask|auto-edit|auto] [--model ID]
                              Chat in the terminal (in-process, or with a running serve at --url);
                              --desc opens the task at once; --mode, --approvals and --model apply
                              to the first task the chat opens
  tasks [--status S]          List tasks (S: active | completed | abandoned)
  probe <profile> [--needle]  Check a model profile against its provider (exit 0 ok, 2 mismatch, 3 error)
  render <deck.json | document-folder> [-o out-dir] [--template <template id | file.pptx>]
                              Render a deck spec or a document folder to .pptx / .docx
  db restore                  Replace a damaged database with its newest sound backup
                              (the damaged file is kept as folio.db.corrupt-<time>)
  quota get|set --database URL --tenant ID [--tokens-per-month N|unlimited|default ...]
                              Show or set a tenant's quotas in the team service's database
  tenant show|suspend|activate|set-plan|erase-user|erase --database URL --tenant ID ...
                              Operate one tenant of the team service (folio tenant, for the flags)
  retention set-plan|show|run --database URL [--plan NAME ...] [--storage-root DIR --dry-run]
                              Retention per plan in the team service: archive unused tasks, remove
                              their files later (folio retention, for the flags)

Data folder: FOLIO_DATA_DIR, else ./workspace in the project.`;

function paths() {
  const resourcesDir = findResourcesDir();
  return { resourcesDir, dataDir: resolveDataDir(join(resourcesDir, 'workspace')) };
}

/** How long after listening `serve` waits before checking profile and skill files. */
const STARTUP_WARNINGS_DELAY_MS = 500;

async function warnAboutBrokenFiles(core: Pick<Core, 'handlers'>): Promise<void> {
  try {
    const [{ warnings: modelWarnings }, { warnings: skillWarnings }] = await Promise.all([core.handlers.listModels({}), core.handlers.listSkills({})]);
    for (const w of [...modelWarnings, ...skillWarnings]) console.warn(`warning: ${w.source}: ${w.message}`);
  } catch (err) {
    console.warn(`warning: could not check model profiles and skills: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function serve(argv: string[]): Promise<void> {
  const config = loadServiceConfig(argv);
  if (config.multiTenant) return serveTeam(config);
  const port = config.port;
  const { resourcesDir, dataDir } = paths();
  // --recover: a damaged database starts web mode on the recovery screen instead of stopping here.
  const core = config.recover ? await createRecoverableCore({ dataDir, resourcesDir, prewarmExtraction: true, warmMachineProbes: true }) : await createCore({ dataDir, resourcesDir, prewarmExtraction: true, warmMachineProbes: true });
  const token = process.env.FOLIO_TOKEN || randomBytes(24).toString('base64url');
  const server = await startHttpServer(core, { port, host: '127.0.0.1', token, staticDir: join(resourcesDir, 'out', 'renderer') });
  console.log(`Folio web mode: ${server.url}/?token=${token}`);
  console.log(`Data folder: ${dataDir}`);
  const corrupt = 'corruption' in core ? core.corruption() : null;
  if (corrupt) {
    console.warn(`${corrupt.message}\nOpen the address above to restore the backup.`);
  } else {
    // Broken profile or skill files never stop Folio; they are named here and in Settings. Reading
    // them (YAML, validation) blocks the event loop, so it waits until the first requests are answered.
    setTimeout(() => void warnAboutBrokenFiles(core), STARTUP_WARNINGS_DELAY_MS).unref();
  }
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    void server.close().then(() => core.close()).finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** The team service: JSON logs on stdout (a start line instead of a `?token=` URL), drain on SIGTERM. */
async function serveTeam(config: ServiceConfig): Promise<void> {
  if (config.platformKey === null || config.jwt === null) throw new FolioError('invalid_input', 'multi-tenant mode needs a platform key and a JWT verification');
  const log = createJsonLogger();
  const service = await createServiceCore(config, paths(), log);
  const server = await startTeamHttpServer(config, service, log);
  log.info({ msg: 'folio service listening', port: server.port, config: JSON.stringify(config.describe()) });
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ msg: 'draining', signal, grace_ms: config.shutdownGraceMs });
    void server
      .drain({ graceMs: config.shutdownGraceMs, onDrain: service.onDrain })
      .then(() => service.close())
      .then(() => log.info({ msg: 'stopped' }))
      .catch((error: unknown) => log.error({ msg: 'shutdown failed', error: error instanceof Error ? error.message : String(error) }))
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

async function tasks(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { status: { type: 'string' } }, strict: true });
  const status = values.status === undefined ? undefined : TaskStatus.parse(values.status);
  const core = await createCore({ ...paths(), exclusive: false });
  try {
    const { tasks: list } = await core.handlers.listTasks({ status });
    if (list.length === 0) console.log('No tasks.');
    for (const t of list) {
      const when = new Date(t.updated_at).toISOString().slice(0, 16).replace('T', ' ');
      console.log(`${t.id}  ${t.status.padEnd(9)} ${t.mode.padEnd(8)} ${when}  ${t.title || t.description.split('\n')[0] || '(untitled)'}`);
    }
  } finally {
    await core.close();
  }
}

export async function main(argv = process.argv.slice(2)): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        await serve(rest);
        return -1; // keeps running
      case 'chat':
        return await (await import('./chat-command')).chatCommand(rest, paths);
      case 'tasks':
        await tasks(rest);
        return 0;
      case 'probe':
        return await (await import('./probe-command')).probeCommand(rest, paths());
      case 'render':
        return await (await import('./render-command')).renderCommand(rest, paths);
      case 'db':
        return (await import('./db-command')).dbCommand(rest, paths().dataDir);
      case 'quota':
        return await (await import('./quota-command')).quotaCommand(rest);
      case 'tenant':
        return await (await import('./tenant-command')).tenantCommand(rest);
      case 'retention':
        return await (await import('./retention-command')).retentionCommand(rest);
      case undefined:
      case 'help':
      case '--help':
        console.log(USAGE);
        return command === undefined ? 1 : 0;
      default:
        console.error(`Unknown command: ${command}\n\n${USAGE}`);
        return 1;
    }
  } catch (err) {
    if (err instanceof DatabaseCorruptError) {
      console.error(err.message);
      console.error(err.backup ? 'To restore it: folio db restore (or folio serve --recover to do it from the browser)' : 'Move folio.db aside to start with an empty database.');
      return 4;
    }
    console.error(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
    return 3;
  }
}

void main().then((code) => {
  if (code >= 0) process.exit(code);
});
