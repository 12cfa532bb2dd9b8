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
import { CliInputError, cliLanguage, cliTranslate, configWarningLine, describeCliError, describeCorruption, padCells, type Translate } from './cli-messages';

function paths() {
  const resourcesDir = findResourcesDir();
  return { resourcesDir, dataDir: resolveDataDir(join(resourcesDir, 'workspace')) };
}

/** How long after listening `serve` waits before checking profile and skill files. */
const STARTUP_WARNINGS_DELAY_MS = 500;

async function warnAboutBrokenFiles(core: Pick<Core, 'handlers'>, t: Translate): Promise<void> {
  try {
    const [{ warnings: modelWarnings }, { warnings: skillWarnings }] = await Promise.all([core.handlers.listModels({}), core.handlers.listSkills({})]);
    for (const w of [...modelWarnings, ...skillWarnings]) console.warn(configWarningLine(w, t));
  } catch (err) {
    // The error's own words in English; its kind in another language.
    const what = cliLanguage() === 'en' ? (err instanceof Error ? err.message : String(err)) : t(`errorKind.${err instanceof FolioError ? err.code : 'unknown'}`);
    console.warn(t('warnings.checkFailed', { what }));
  }
}

async function serve(argv: string[], t: Translate): Promise<void> {
  const config = loadServiceConfig(argv);
  if (config.multiTenant) return serveTeam(config);
  const port = config.port;
  const { resourcesDir, dataDir } = paths();
  // --recover: a damaged database starts web mode on the recovery screen instead of stopping here.
  const core = config.recover ? await createRecoverableCore({ dataDir, resourcesDir, prewarmExtraction: true, warmMachineProbes: true }) : await createCore({ dataDir, resourcesDir, prewarmExtraction: true, warmMachineProbes: true });
  const token = process.env.FOLIO_TOKEN || randomBytes(24).toString('base64url');
  const server = await startHttpServer(core, { port, host: '127.0.0.1', token, staticDir: join(resourcesDir, 'out', 'renderer') });
  console.log(t('serve.url', { url: `${server.url}/?token=${token}` }));
  console.log(t('serve.dataFolder', { dir: dataDir }));
  const corrupt = 'corruption' in core ? core.corruption() : null;
  if (corrupt) {
    console.warn(`${describeCorruption(corrupt, t)}\n${t('serve.openToRestore')}`);
  } else {
    // Broken profile or skill files never stop Folio; they are named here and in Settings. Reading
    // them (YAML, validation) blocks the event loop, so it waits until the first requests are answered.
    setTimeout(() => void warnAboutBrokenFiles(core, t), STARTUP_WARNINGS_DELAY_MS).unref();
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

async function tasks(argv: string[], t: Translate): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { status: { type: 'string' } }, strict: true });
  const parsed = values.status === undefined ? undefined : TaskStatus.safeParse(values.status);
  if (parsed && !parsed.success) throw new CliInputError('errors.badStatus', { status: values.status ?? '' });
  const core = await createCore({ ...paths(), exclusive: false });
  try {
    const { tasks: list } = await core.handlers.listTasks({ status: parsed?.data });
    if (list.length === 0) console.log(t('tasks.none'));
    for (const task of list) {
      const when = new Date(task.updated_at).toISOString().slice(0, 16).replace('T', ' ');
      const title = task.title || task.description.split('\n')[0] || t('tasks.untitled');
      console.log(t('tasks.row', { id: task.id, status: padCells(t(`status.${task.status}`), 9), mode: padCells(t(`modes.${task.mode}`), 8), when, title }));
    }
  } finally {
    await core.close();
  }
}

export async function main(argv = process.argv.slice(2)): Promise<number> {
  const [command, ...rest] = argv;
  const t = await cliTranslate();
  try {
    switch (command) {
      case 'serve':
        await serve(rest, t);
        return -1; // keeps running
      case 'chat':
        return await (await import('./chat-command')).chatCommand(rest, paths);
      case 'tasks':
        await tasks(rest, t);
        return 0;
      case 'probe':
        return await (await import('./probe-command')).probeCommand(rest, paths(), t);
      case 'render':
        return await (await import('./render-command')).renderCommand(rest, paths, t);
      case 'db':
        return (await import('./db-command')).dbCommand(rest, paths().dataDir, t);
      case 'quota':
        return await (await import('./quota-command')).quotaCommand(rest);
      case 'tenant':
        return await (await import('./tenant-command')).tenantCommand(rest);
      case 'retention':
        return await (await import('./retention-command')).retentionCommand(rest);
      case undefined:
      case 'help':
      case '--help':
        console.log(t('usage'));
        return command === undefined ? 1 : 0;
      default:
        console.error(`${t('errors.unknownCommand', { command })}\n\n${t('usage')}`);
        return 1;
    }
  } catch (err) {
    if (err instanceof DatabaseCorruptError) {
      console.error(describeCorruption(err, t));
      console.error(t(err.backup ? 'errors.corruptRestore' : 'errors.corruptMoveAside'));
      return 4;
    }
    const { text, usage } = describeCliError(err, t);
    console.error(usage ? `${text}\n${t('help')}` : text);
    return 3;
  }
}

void main().then((code) => {
  if (code >= 0) process.exit(code);
});
