// The composition of Folio's core, shared by the Electron root, the CLI and the team service: it
// only wires ports. The store (core-store.ts), the run assembly (assembly/), the handlers
// (handlers/) and the policies over them (policies/) each live in their own module. It imports
// nothing from Electron, so it runs in plain Node.
import { mkdirSync } from 'node:fs';
import type { FileEntry } from '../../shared/contract';
import { createRunDriver } from '../assembly/assemble-run';
import type { ChatModel } from '../llm/types';
import { createFileKeyStore, withBroughtKeys, type KeyStore, type ModelProfile } from '../models';
import type { OutboundAudit } from '../net/outbound-audit';
import { RunManager } from '../runs/run-manager';
import type { OpenedStorePort } from '../store/port';
import { taskDir } from '../workspace/layout';
import { codeCacheDir } from '../config/app-paths';
import { ensureExtracted, isExtractable, scheduleExtractionPrewarm } from '../sources';
import type { WebFetchToolOptions } from '../tools/web-fetch';
import { mcpConfigPath } from '../mcp/config';
import { McpManager } from '../mcp/manager';
import { moveFileSecretsToKeyStore } from '../mcp/secrets';
import { LibraryIndexer, type IndexedFile } from '../library/indexer';
import { createEmbeddingBackfill, type EmbeddingBackfill } from '../library/backfill';
import type { Embedder } from '../library/search';
import { resolveEmbedder } from '../settings/embedding-settings';
import { releaseTasks } from '../sandbox/select-executor';
import type { DesktopShell, ServiceContext } from './context';
import { openCoreStore } from './core-store';
import { createServiceHandlers } from './handlers';
import { applyPolicies } from './policies/policy';
import type { FolioCore } from './ports';
import { syncTaskFiles } from './task-files';
import { corePolicies, scopeAudit, teamModelHooks, teamRunHooks, teamTaskStorage, type TeamCoreOptions } from './team-core';
import { importTemplateFile } from './templates';
import { warmMachineProbes } from './machine-probes';
import { createUploads } from './uploads';
import { makeScratchDir, UPLOAD_DIR_PREFIX, useScratchRoot } from '../workspace/scratch';

export interface CoreOptions {
  dataDir: string;
  resourcesDir: string;
  env?: NodeJS.ProcessEnv;
  keys?: KeyStore;
  /** Test seam: build the chat model differently (e.g. tighter retry timings). */
  createModel?: (profile: ModelProfile, apiKey: string, outbound: OutboundAudit | null) => ChatModel;
  /**
   * false: a short-lived command (`folio tasks`) that may run beside the app owning the data
   * folder; it then skips the start-up clean-up. Default true: refuse if another process owns it.
   */
  exclusive?: boolean;
  /** The desktop app's shell integration (open a file, show it in its folder). */
  desktop?: DesktopShell;
  /** Test seam: web_fetch's address policy (integration tests read pages from a local server). */
  webFetch?: WebFetchToolOptions;
  /**
   * Long-running processes (the app, `folio serve`): once start-up is over, keep an extraction
   * worker ready so the first dropped file does not wait for one. Off for tests and short commands.
   */
  prewarmExtraction?: boolean;
  /** Long-running processes: the sandbox and Python probes start in the background (machine-probes.ts). */
  warmMachineProbes?: boolean;
  /** After each library file is indexed (the embedding backfill is started from here). */
  onLibraryIndexed?: (file: IndexedFile) => void;
  /** The embedding client for semantic library search, or null (full text alone). */
  embedder?: () => Embedder | null;
  /**
   * The store, already opened (tests: openTestStorePort; the team service: PostgreSQL); closed
   * with the core. Default: the SQLite file `folio.db` in the data folder.
   */
  store?: OpenedStorePort;
  /** The team service: this scope's core among many workers; absent on the desktop. */
  team?: TeamCoreOptions;
  /**
   * A core of `folio serve --multi-tenant`, with or without a database: its handlers follow the
   * team service's rules (policies/team-rules.ts). Implied by `team`.
   */
  teamPolicy?: boolean;
}

/** Who a request is (the team service): the model keys it brought and who its requests leaving the service are charged to. */
export interface RequestWork {
  brought: ReadonlyMap<string, string> | null;
  outbound: OutboundAudit | null;
}

export interface Core extends FolioCore {
  /** The core as one request sees it: its handlers read the request's keys first and charge its outbound requests to it. */
  forRequest(work: RequestWork): FolioCore;
  runs: RunManager;
  ctx: ServiceContext;
  /** The library indexer: tests wait for it with `idle()`. */
  indexer: LibraryIndexer;
  /** The embedding backfill, kicked after indexing, at start and when the profile changes. */
  backfill: EmbeddingBackfill;
}

export async function createCore(opts: CoreOptions): Promise<Core> {
  const { dataDir, resourcesDir, team } = opts;
  mkdirSync(dataDir, { recursive: true });
  const data = await openCoreStore({ dataDir, shared: Boolean(team), ...(opts.store ? { store: opts.store } : {}), ...(opts.exclusive === undefined ? {} : { exclusive: opts.exclusive }) });
  const { store } = data;
  // Renders of a desktop or web-mode core stage in its data folder; the team service sets the
  // storage root's scratch once for the process (cli/service-core).
  const releaseScratch = data.owned && !team && !opts.teamPolicy ? useScratchRoot(dataDir) : () => undefined;
  // A team core (no owner) still resumes its tenant's queues: other workers share them.
  const resumes = data.owned || Boolean(team);

  const env = opts.env ?? process.env;
  const cancelPrewarm = opts.prewarmExtraction ? scheduleExtractionPrewarm(codeCacheDir(dataDir)) : () => undefined;
  if (opts.warmMachineProbes) void warmMachineProbes();
  const keys = opts.keys ?? createFileKeyStore(dataDir);
  // MCP servers start on first use and are shared by every task's runs; close() stops them.
  // Secrets typed straight into mcp.json are moved into the key store before any server can start.
  moveFileSecretsToKeyStore(mcpConfigPath(dataDir), keys);
  const mcp = new McpManager({ configPath: mcpConfigPath(dataDir), keys, allowStdio: !(team || opts.teamPolicy) });

  // The library's queue lives in the store, so a restart resumes it. At start only the data
  // folder's owner rescans and resumes (a second process must not extract the same files). A team
  // core resumes the tenant's queue without a rescan: a file a dead worker left pending is indexed
  // when the tenant next comes back. Two workers may then extract one file twice, which costs CPU
  // but no data (replacePages keeps the pages of the bytes the row still names).
  // Semantic search is optional: the embedder is built from the current settings at each use (null
  // without an embedding profile), and the backfill embeds pages in the background after each file
  // is indexed, at start (to resume) and when the profile changes.
  // The embedder of a piece of work reads its keys and charges its requests to it.
  const embedderFor = (work: { keys: KeyStore; outbound: OutboundAudit | null }) => opts.embedder ?? (() => resolveEmbedder({ store, env, ...work }));
  // A team core's background work (indexing, embedding) is charged to its scope, whichever request woke it.
  const background = scopeAudit(team, store, null);
  const embedder = embedderFor({ keys, outbound: background });
  const backfill = createEmbeddingBackfill(store, embedder);
  const indexer = new LibraryIndexer({
    store,
    dataDir,
    onIndexed: (file) => {
      opts.onLibraryIndexed?.(file);
      backfill.kick();
    },
  });
  const indexerStarted = data.owned ? indexer.start().catch((err: unknown) => console.warn(`[folio] library indexing failed: ${err instanceof Error ? err.message : String(err)}`)) : Promise.resolve();
  if (team) indexer.kick();
  if (resumes) backfill.kick();

  // The tasks whose programs this core ran: closing it frees their containers only (the executor is the process's).
  const ranTasks = new Set<string>();
  // The team's storage quota charges what a task's folder holds after each call that may write there.
  const taskStorage = team ? teamTaskStorage(team, store, dataDir) : null;
  const driver = createRunDriver({
    store,
    dataDir,
    resourcesDir,
    keys,
    env,
    mcp,
    embedderFor,
    runAudit: (run) => scopeAudit(team, store, run),
    ...(opts.createModel ? { createModel: opts.createModel } : {}),
    ...(opts.webFetch ? { webFetch: opts.webFetch } : {}),
    hiddenPaths: team?.hiddenPaths ?? [],
    ...(team ? teamModelHooks(team, store) : {}),
    ruleTier: team || opts.teamPolicy ? 'team' : 'user',
    ...(taskStorage ? { storage: taskStorage } : {}),
    afterRun: async (taskId) => {
      ranTasks.add(taskId);
      await syncTaskFiles(store, dataDir, taskId);
      await taskStorage?.reconcile(taskId);
    },
  });
  const runs = new RunManager(store, driver, team ? teamRunHooks(team, store) : {});

  /** Sources are extracted as soon as they arrive, so the UI can show pages or a clear error. */
  function extractInBackground(taskId: string, files: FileEntry[]): void {
    const root = taskDir(dataDir, taskId);
    for (const f of files) if (isExtractable(f.path)) void ensureExtracted(root, f.path).catch(() => undefined);
  }

  const ctx: ServiceContext = { store, runs, dataDir, resourcesDir, keys, env, desktop: opts.desktop, mcp, brought: null, outbound: background };
  const library = { indexer, embedder };
  const policies = corePolicies({ store, team, teamRules: Boolean(opts.teamPolicy), dataDir, resourcesDir });
  const handlersFor = (own: ServiceContext) =>
    applyPolicies(
      createServiceHandlers(own, {
        onSourcesAdded: extractInBackground,
        library: own === ctx ? library : { indexer, embedder: embedderFor(own) },
        // A team core kicks too: the tenant's pages are embedded by the worker that took the change.
        onEmbeddingChanged: () => {
          if (resumes) backfill.kick();
        },
      }),
      policies,
    );
  const handlers = handlersFor(ctx);

  const core: Core = {
    forRequest: (work) => ({ ...core, handlers: handlersFor({ ...ctx, keys: withBroughtKeys(keys, work.brought), ...work }) }),
    handlers,
    events: runs,
    runs,
    ctx,
    dataDir,
    makeUploadDir: () => makeScratchDir(UPLOAD_DIR_PREFIX, dataDir),
    ...createUploads({ store, dataDir, library, ...(team ? { team } : {}), onSourcesAdded: extractInBackground }),
    indexer,
    backfill,
    async importUploadedTemplate(file) {
      return importTemplateFile(dataDir, file.path, file.name);
    },
    async close() {
      cancelPrewarm();
      await indexerStarted;
      await indexer.close();
      backfill.stop();
      await runs.shutdown();
      await releaseTasks(ranTasks);
      await mcp.close();
      await data.close();
      releaseScratch();
    },
  };
  return core;
}
