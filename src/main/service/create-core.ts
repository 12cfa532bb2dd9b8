// The composition of Folio's core, shared by the Electron root and the CLI: store, run manager,
// agent driver and service handlers. It imports nothing from Electron, so it runs in plain Node.
import { join } from 'node:path';
import { mkdirSync, statSync } from 'node:fs';
import type { FileEntry, FinishReason, RunEventBody } from '../../shared/contract';
import { FolioError } from '../../shared/errors';
import { runAgentLoop } from '../agent/loop';
import { createStoreConversation } from '../agent/store-conversation';
import { loadPromptTemplate, renderSystemPrompt, skillLanguageRule } from '../agent/system-prompt';
import { assertKey, createChatModel, estimateCost } from '../llm/openai-chat-model';
import type { ChatModel } from '../llm/types';
import { createFileKeyStore, loadModelProfiles, resolveApiKey, type KeyStore, type ModelProfile } from '../models';
import { planReasoning } from '../models';
import { RunManager, newId, type RunDriverContext } from '../runs/run-manager';
import { loadSkills } from '../skills/skill-registry';
import type { OpenedStorePort, Scope } from '../store/port';
import { openSqliteStorePort, sqliteMaintenance } from '../store/sqlite-port';
import { acquireDataLock, type DataLock } from '../config/data-lock';
import { sweepScratch } from '../config/scratch';
import { taskDir } from '../workspace/layout';
import { readOutline } from '../workspace/outline-file';
import { ensureExtracted, isExtractable, scheduleExtractionPrewarm, sourceNotes } from '../sources';
import { createServiceHandlers, hasKey, pickProfile, profileDirs, skillDirs, usableCheck, type DesktopShell, type ServiceContext } from './folio-service';
import type { FolioCore } from './ports';
import { addSourceFile, syncTaskFiles } from './task-files';
import { importTemplateFile, templatesDir, themesDir } from './templates';
import { readSearchSettings, resolveSearchConfig, searchKeyEnv } from './search-settings';
import type { WebFetchToolOptions } from '../tools/web-fetch';
import { mcpConfigPath } from '../mcp/config';
import { McpManager } from '../mcp/manager';
import { moveFileSecretsToKeyStore } from '../mcp/secrets';
import { mcpToolsForTask } from '../mcp/tools';
import { NESTED_CALL_SEPARATOR } from '../../shared/contract';
import { createSkillToolLookup, isNestedCallId, skillModelResolver } from './skill-agents';
import { sha256Of, storeIdOf } from '../library/files';
import { LibraryIndexer, type IndexedFile } from '../library/indexer';
import { createEmbeddingBackfill, type EmbeddingBackfill } from '../library/backfill';
import { embeddingKeyEnv, readEmbeddingSettings, resolveEmbedder } from './embedding-settings';
import type { Embedder } from '../library/search';
import { addFilesToLibrary } from './projects-service';
import { taskLibraries } from './library-access';
import { closeDefaultExecutor } from '../sandbox/select-executor';
import type { RunCluster, RunHooks } from '../runs/run-cluster';
import type { TeamQuotas } from '../quotas/team-quotas';
import { tenantUsageAnswer } from '../quotas/usage-answer';
import { applyTeamPolicy } from './team-policy';

export interface CoreOptions {
  dataDir: string;
  resourcesDir: string;
  env?: NodeJS.ProcessEnv;
  keys?: KeyStore;
  /** Test seam: build the chat model differently (e.g. tighter retry timings). */
  createModel?: (profile: ModelProfile, apiKey: string) => ChatModel;
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
  // ---- projects and libraries (issue 14) ----
  /** After each library file is indexed (the embedding backfill is started from here). */
  onLibraryIndexed?: (file: IndexedFile) => void;
  /** The embedding client for semantic library search, or null (full text alone). */
  embedder?: () => Embedder | null;
  /**
   * The store, already opened (tests: openTestStorePort; the team service: PostgreSQL); closed
   * with the core. Default: the SQLite file `folio.db` in the data folder.
   */
  store?: OpenedStorePort;
  /** The team service (issue 16): this scope's core among many workers; absent on the desktop. */
  team?: TeamCoreOptions;
  /**
   * A core of `folio serve --multi-tenant`, with or without a database: its handlers follow the
   * team service's rules (team-policy.ts). Implied by `team`.
   */
  teamPolicy?: boolean;
}

/**
 * What a core of the team service shares with the other workers. Such a core never takes the data
 * folder's lock nor sweeps runs at start (other workers' runs are live): the cluster's leases decide
 * which runs died.
 */
export interface TeamCoreOptions {
  cluster: RunCluster;
  quotas: TeamQuotas;
  /** Folders no command may see besides the tenant's: the storage root holds every tenant. */
  hiddenPaths: string[];
}

/** A model whose every call first checks the tenant's token quota (the call that crosses it finishes). */
function withQuotaCheck(model: ChatModel, check: () => Promise<void>): ChatModel {
  return {
    async *stream(request, signal) {
      await check();
      yield* model.stream(request, signal);
    },
  };
}

function teamRunHooks(team: TeamCoreOptions, scope: Scope): RunHooks {
  return {
    cluster: team.cluster,
    beforeStart: () => team.quotas.guard.beforeRunStart(scope),
    onUsage: ({ taskId, runId }, usage) => team.quotas.ledger.record(scope, { kind: 'tokens', task_id: taskId, run_id: runId, ...usage }),
  };
}

export interface Core extends FolioCore {
  runs: RunManager;
  ctx: ServiceContext;
  /** The library indexer (issue 14): tests wait for it with `idle()`. */
  indexer: LibraryIndexer;
  /** The embedding backfill (issue 14), kicked after indexing, at start and when the profile changes. */
  backfill: EmbeddingBackfill;
}

/** How long after start the daily database backup waits, so it does not delay the first requests. */
const BACKUP_DELAY_MS = 1000;

export async function createCore(opts: CoreOptions): Promise<Core> {
  mkdirSync(opts.dataDir, { recursive: true });
  // Team cores share the tenant's folder between workers: no lock, and no clean-up at start.
  const lock: DataLock = opts.team ? { owned: false, holder: null, release: () => undefined } : acquireDataLock(opts.dataDir);
  if (!lock.owned && opts.exclusive !== false && !opts.team) {
    await opts.store?.close();
    throw new FolioError('conflict', `Folio is already running on ${opts.dataDir}${lock.holder ? ` (process ${lock.holder})` : ''}; close it first or use another FOLIO_DATA_DIR.`);
  }
  let opened: OpenedStorePort;
  try {
    opened = opts.store ?? openSqliteStorePort(join(opts.dataDir, 'folio.db'));
  } catch (err) {
    // A damaged database (DatabaseCorruptError) or a newer schema: the caller decides what to tell
    // the person, and restoring needs the folder free.
    lock.release();
    throw err;
  }
  const store = opened.port;
  let backup: Promise<unknown> = Promise.resolve();
  let backupTimer: NodeJS.Timeout | undefined;
  const startBackup = () => {
    backupTimer = undefined;
    // A failed backup is reported, never fatal.
    backup = sqliteMaintenance(store)
      .backupIfDue()
      .catch((err: unknown) => console.warn(`[folio] database backup failed: ${err instanceof Error ? err.message : String(err)}`));
  };
  if (lock.owned) {
    try {
      // Lazy creation: tasks nobody used leave nothing behind; runs cut off by a stop are marked.
      // Only the owner may do this: another process's runs may be live.
      await store.tasks.purgeUnmaterialized();
      await store.runs.markRunningAsInterrupted();
      sweepScratch(opts.dataDir);
    } catch (err) {
      await opened.close();
      lock.release();
      throw err;
    }
    // The database has just passed quick_check (openStore), so it is sound: the daily backup of it
    // (online, so the app answers meanwhile) starts once the first requests are answered, or at
    // close() if that comes first. Backups are the desktop's (SQLite) concern.
    if (store.dialect === 'sqlite') {
      backupTimer = setTimeout(startBackup, BACKUP_DELAY_MS);
      backupTimer.unref();
    }
  }

  const env = opts.env ?? process.env;
  const cancelPrewarm = opts.prewarmExtraction ? scheduleExtractionPrewarm() : () => undefined;
  const keys = opts.keys ?? createFileKeyStore(opts.dataDir);
  const ctxRef: { ctx?: ServiceContext } = {};
  // MCP servers start on first use and are shared by every task's runs; close() stops them.
  // Secrets typed straight into mcp.json are moved into the key store before any server can start.
  moveFileSecretsToKeyStore(mcpConfigPath(opts.dataDir), keys);
  const mcp = new McpManager({ configPath: mcpConfigPath(opts.dataDir), keys, allowStdio: !(opts.team || opts.teamPolicy) });
  // ---- projects and libraries (issue 14): the queue lives in the store, so a restart resumes it.
  // At start only the data folder's owner rescans and resumes (a second process must not extract the
  // same files). A team core (no owner) resumes the tenant's queue without a rescan: a file a dead
  // worker left pending is indexed when the tenant next comes back, not at its next upload. Two
  // workers may then extract one file twice, which costs CPU but no data (replacePages keeps the
  // pages of the bytes the row still names).
  // Semantic search is optional: the embedder is built from the current settings at each use (null
  // without an embedding profile), and the backfill embeds pages in the background after each file
  // is indexed, at start (to resume) and when the profile changes.
  const embedder = opts.embedder ?? (() => resolveEmbedder({ store, keys, env }));
  const backfill = createEmbeddingBackfill(store, embedder);
  const indexer = new LibraryIndexer({
    store,
    dataDir: opts.dataDir,
    onIndexed: (file) => {
      opts.onLibraryIndexed?.(file);
      backfill.kick();
    },
  });
  const indexerStarted = lock.owned ? indexer.start().catch((err: unknown) => console.warn(`[folio] library indexing failed: ${err instanceof Error ? err.message : String(err)}`)) : Promise.resolve();
  if (opts.team) indexer.kick();
  if (lock.owned || opts.team) backfill.kick();

  async function* driver(run: RunDriverContext): AsyncGenerator<RunEventBody, FinishReason> {
    const ctx = ctxRef.ctx!;
    const task = await store.tasks.get(run.taskId);
    if (!task) throw new FolioError('not_found', `No task ${run.taskId}`);
    const profile = await pickProfile(ctx, task);
    const apiKey = resolveApiKey(profile, keys, env) ?? '';
    assertKey(profile, apiKey);
    const built = (opts.createModel ?? createChatModel)(profile, apiKey);
    const { team } = opts;
    const model = team ? withQuotaCheck(built, () => team.quotas.guard.beforeModelCall(store.scope)) : built;

    const skills = () => loadSkills(skillDirs(ctx)).skills;
    // Every key variable a profile names is stripped from tool environments, not just *_API_KEY.
    const { profiles } = loadModelProfiles(profileDirs(ctx));
    const secretNames = profiles.flatMap((p) => (p.api_key_env ? [p.api_key_env] : []));
    // The web search key too (issue 12): commands and scripts never see it.
    const searchEnv = searchKeyEnv(await readSearchSettings(store));
    if (searchEnv) secretNames.push(searchEnv);
    const embeddingEnv = embeddingKeyEnv(await readEmbeddingSettings(store));
    if (embeddingEnv) secretNames.push(embeddingEnv);
    // ---- projects and libraries (issue 14) ----
    const libraries = await taskLibraries(store, task, embedder);
    // The tools (their modules, schemas and renderers) load at the first run, not at start-up.
    const [{ createToolRegistry }, { pickVisionProfile }] = await Promise.all([import('../tools/catalog'), import('../tools/ocr')]);
    const registry = createToolRegistry({
      searchLibrary: libraries.hasFiles,
      secretNames: () => secretNames,
      // Shell and scripts run sandboxed (bubblewrap, where available) with the data folder hidden:
      // it holds keys.json and every other task.
      hiddenPaths: [opts.dataDir, ...(opts.team?.hiddenPaths ?? [])],
      themesDir: themesDir(opts.dataDir),
      templatesDir: templatesDir(opts.dataDir),
      skills,
      // Scanned sources are read by a vision-capable profile: the task's own, else a cheap worker one.
      ocr: {
        pickVisionProfile: () => {
          const vision = pickVisionProfile(profiles, profile.id, (p) => hasKey(p, keys, env));
          return vision ? { profile: vision, apiKey: resolveApiKey(vision, keys, env) ?? '' } : null;
        },
        onUsage: (used, usage) => {
          const cost = estimateCost(used, usage);
          const tokens = { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, cost };
          // The tool waits for nothing: a failed write is the run's loss of a count, not the call's.
          store
            .transaction(async (tx) => {
              await tx.runs.addUsage(run.runId, tokens);
              await tx.tasks.addUsage(task.id, tokens);
            })
            .catch((err: unknown) => console.warn(`[folio] OCR usage not recorded: ${err instanceof Error ? err.message : String(err)}`));
        },
      },
      // ---- web search (issue 12): read at each call, so Settings changes apply mid-task ----
      search: () => resolveSearchConfig(ctx),
      ...(opts.webFetch ? { webFetch: opts.webFetch } : {}),
      // ---- skill-agent (issue 15) ----
      skillsUserDir: skillDirs(ctx).user,
    });

    // The task's MCP servers add their tools to this run's registry only (issue 12). Starting one
    // can take seconds (npx may download it first): the UI is told what the run waits for.
    const servers = task.mcp_servers ?? [];
    if (servers.length > 0) yield { type: 'progress', label: 'starting MCP servers', done: 0, total: servers.length };
    const mcpTools = await mcpToolsForTask(mcp, servers, run.signal);
    for (const tool of mcpTools.tools) registry.register(tool);

    const ownFolder = taskDir(opts.dataDir, task.id);
    const root = task.workspace_path ?? ownFolder;
    const template = loadPromptTemplate(opts.resourcesDir);
    const basePrompt = renderSystemPrompt(template, {
      taskFolder: root,
      mode: task.mode,
      sources: await store.files.list(task.id),
      sourceNotes: await sourceNotes(ownFolder).catch(() => ({})),
      // Skills that run as sub-agents are offered as skill_<name> tools instead of load_skill.
      skills: skills().filter((s) => s.agent === null),
      outline: await readOutline(ownFolder).catch(() => null),
      project: libraries.project,
      personalLibrary: libraries.personal,
    });
    // A setting the profile cannot honour is dropped from the request (request-params) and said once here.
    if (task.reasoning !== null) {
      const { applied } = planReasoning(profile, task.reasoning);
      if (applied !== task.reasoning) yield { type: 'reasoning_ignored', profile: profile.id, requested: task.reasoning, applied };
    }
    const systemPrompt = mcpTools.unavailable.length > 0 ? `${basePrompt}\n\n${mcpTools.unavailable.join('\n')}` : basePrompt;
    const approvals = { ...run.approvals, mode: async () => (await store.tasks.get(task.id))?.approval_mode ?? 'ask' };
    // ---- skill-agent (issue 15): skills as sub-agents; a nested question never outlives its call ----
    const dropApprovals = async (match: (callId: string) => boolean) => {
      for (const a of await store.approvals.list(task.id)) if (match(a.call_id)) await store.approvals.delete(a.run_id, a.call_id);
    };
    await dropApprovals(isNestedCallId);
    const latestUser = (await store.messages.all(task.id)).findLast((m) => m.role === 'user')?.content ?? null;
    const tools = createSkillToolLookup({
      skills,
      base: registry,
      approvals,
      reasoning: task.reasoning,
      languageRule: skillLanguageRule(template, latestUser),
      taskFolder: root,
      dropNestedApprovals: (parent) => dropApprovals((id) => id.startsWith(`${parent}${NESTED_CALL_SEPARATOR}`)),
      resolveModel: skillModelResolver({
        profiles,
        task: { profile, model },
        check: usableCheck(ctx),
        build: (p) => (opts.createModel ?? createChatModel)(p, resolveApiKey(p, keys, env) ?? ''),
      }),
    });
    try {
      return yield* runAgentLoop(
        {
          model,
          reasoning: task.reasoning,
          tools,
          systemPrompt,
          limits: { maxIterations: profile.max_iterations, reliableContext: profile.reliable_context, price: profile.price },
          toolContext: {
            root,
            taskRoot: ownFolder,
            taskId: task.id,
            runId: run.runId,
            // Read each time: the person may flip the switch while the run goes on.
            network: {
              allowed: async () => (await store.tasks.get(task.id))?.allow_network === true,
              allow: async () => void (await store.tasks.update(task.id, { allow_network: true })),
            },
            ...(libraries.port ? { library: libraries.port } : {}),
          },
          approvals,
          conversation: await createStoreConversation(store, task.id, run.runId, newId),
        },
        run.signal,
      );
    } finally {
      await syncTaskFiles(store, opts.dataDir, task.id).catch(() => undefined);
    }
  }

  /** Sources are extracted as soon as they arrive, so the UI can show pages or a clear error. */
  function extractInBackground(taskId: string, files: FileEntry[]): void {
    const root = taskDir(opts.dataDir, taskId);
    for (const f of files) if (isExtractable(f.path)) void ensureExtracted(root, f.path).catch(() => undefined);
  }

  const runs = new RunManager(store, driver, opts.team ? teamRunHooks(opts.team, store.scope) : {});
  const ctx: ServiceContext = { store, runs, dataDir: opts.dataDir, resourcesDir: opts.resourcesDir, keys, env, desktop: opts.desktop, mcp };
  ctxRef.ctx = ctx;
  const libraryDeps = { indexer, embedder };
  const handlers = createServiceHandlers(ctx, { onSourcesAdded: extractInBackground, library: libraryDeps });
  const updateSettings = handlers.updateSettings;
  handlers.updateSettings = async (input) => {
    const out = await updateSettings(input);
    // A team core kicks too: the tenant's pages are embedded by the worker that took the change.
    if (input.embedding !== undefined && (lock.owned || opts.team)) backfill.kick();
    return out;
  };
  const { team } = opts;
  if (team) {
    // The tenant's month from the append-only ledger, per user and per task, with its quotas.
    handlers.getUsage = (input) =>
      tenantUsageAnswer(store.scope, input, {
        ledger: team.quotas.ledger,
        guard: team.quotas.guard,
        taskTitles: async (_scope, ids) => new Map((await Promise.all(ids.map((id) => store.tasks.get(id)))).flatMap((t) => (t ? [[t.id, t.title] as const] : []))),
      });
    // Storage is a level: uploads (source files) add to it, so deleting them frees it again.
    const { deleteFile, deleteTask } = handlers;
    const free = (taskId: string, bytes: number) => (bytes > 0 ? team.quotas.ledger.record(store.scope, { kind: 'storage', task_id: taskId, bytes: -bytes }) : Promise.resolve());
    handlers.deleteFile = async (input) => {
      const entry = await store.files.get(input.task_id, input.path);
      const out = await deleteFile(input);
      if (entry?.kind === 'source') await free(input.task_id, entry.size);
      return out;
    };
    handlers.deleteTask = async (input) => {
      const sources = (await store.files.list(input.task_id)).filter((f) => f.kind === 'source');
      const out = await deleteTask(input);
      await free(input.task_id, sources.reduce((sum, f) => sum + f.size, 0));
      return out;
    };
    // Library files are stored bytes too: deleting one, or a project with its library, frees them.
    const { deleteLibraryFile, deleteProject } = handlers;
    const freeLibrary = (bytes: number) => (bytes > 0 ? team.quotas.ledger.record(store.scope, { kind: 'storage', bytes: -bytes }) : Promise.resolve());
    handlers.deleteLibraryFile = async (input) => {
      const row = await store.library.get(storeIdOf(input.project_id), input.path);
      const out = await deleteLibraryFile(input);
      await freeLibrary(row?.size ?? 0);
      return out;
    };
    handlers.deleteProject = async (input) => {
      const rows = await store.library.list(input.project_id);
      const out = await deleteProject(input);
      await freeLibrary(rows.reduce((sum, r) => sum + r.size, 0));
      return out;
    };
  }
  // Last, so it wraps every handler above too.
  if (opts.team || opts.teamPolicy) applyTeamPolicy(handlers, { dataDir: opts.dataDir, resourcesDir: opts.resourcesDir, outerDirs: opts.team?.hiddenPaths ?? [] });

  return {
    handlers,
    events: runs,
    runs,
    ctx,
    dataDir: opts.dataDir,
    async addUploadedFiles(taskId, files) {
      if (!(await store.tasks.get(taskId))) throw new FolioError('not_found', `No task ${taskId}`);
      const bytes = files.reduce((sum, f) => sum + statSync(f.path).size, 0);
      // The bytes are charged before they are written, in one step with the quota check.
      const reservation = team ? await team.quotas.guard.reserveUpload(store.scope, bytes, taskId) : null;
      const out: FileEntry[] = [];
      try {
        for (const f of files) out.push(await addSourceFile(store, opts.dataDir, taskId, f.path, f.name));
      } catch (err) {
        // The files copied before the failure stay (and stay counted); the rest is given back.
        await reservation?.settle(out.reduce((sum, f) => sum + f.size, 0));
        throw err;
      }
      if (team) await team.quotas.ledger.record(store.scope, { kind: 'upload', task_id: taskId, bytes });
      extractInBackground(taskId, out);
      return out;
    },
    ...(team
      ? {
          uploadQuota: {
            allowance: () => team.quotas.guard.uploadAllowance(store.scope),
            async refuse(seen: number): Promise<never> {
              await team.quotas.guard.beforeUpload(store.scope, seen);
              // Unreachable while `seen` is past the allowance; a quota raised meanwhile still stops here.
              throw new FolioError('quota_exceeded', `This upload passed the tenant's allowance at ${seen} bytes.`);
            },
          },
        }
      : {}),
    async addUploadedLibraryFiles(library, files) {
      if (!team) return addFilesToLibrary({ store, dataDir: opts.dataDir, ...libraryDeps }, library, files);
      // As a task's uploads: checked against the upload and storage quotas and charged in one step.
      // A file the library already has (the same bytes) is not stored again, so it counts for
      // nothing. Each file is hashed once here; the hash goes on to addLibraryFile.
      const hashed = [];
      let incoming = 0;
      for (const f of files) {
        const sha256 = await sha256Of(f.path);
        if (!(await store.library.findBySha(storeIdOf(library), sha256))) incoming += statSync(f.path).size;
        hashed.push({ ...f, sha256 });
      }
      const reservation = await team.quotas.guard.reserveUpload(store.scope, incoming);
      // What was stored settles the reservation, also after a failure: a copy of bytes the library
      // got meanwhile (or twice in this upload) stores nothing, and gives its bytes back.
      let storedBytes = 0;
      let added;
      try {
        added = await addFilesToLibrary({ store, dataDir: opts.dataDir, ...libraryDeps }, library, hashed, (bytes) => (storedBytes += bytes));
      } finally {
        await reservation.settle(storedBytes);
      }
      if (storedBytes > 0) await team.quotas.ledger.record(store.scope, { kind: 'upload', bytes: storedBytes });
      return added;
    },
    indexer,
    backfill,
    async importUploadedTemplate(file) {
      return importTemplateFile(opts.dataDir, file.path, file.name);
    },
    async close() {
      cancelPrewarm();
      await indexerStarted;
      await indexer.close();
      backfill.stop();
      await runs.shutdown();
      await closeDefaultExecutor();
      await mcp.close();
      if (backupTimer !== undefined) {
        clearTimeout(backupTimer);
        startBackup();
      }
      await backup;
      await opened.close();
      lock.release();
    },
  };
}
