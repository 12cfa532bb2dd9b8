// Folio's one service implementation: every method of the contract, receiving validated input.
// The transports (IPC, HTTP) are adapters around it; the agent runs through the RunManager.
import { createProjectHandlers, requireOpenProject, type ProjectDeps } from './projects-service';
import { existsSync, rmSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { join } from 'node:path';
import type { FileEntry, MethodOutput, ModelProfileInfo, ServiceHandlers, Settings, Task } from '../../shared/contract';
import { FolioError, NotFoundError } from '../../shared/errors';
import type { KeyStore, ModelProfile } from '../models';
import { loadModelProfiles, toProfileInfo } from '../models';
import type { RunManager } from '../runs/run-manager';
import { newId } from '../runs/run-manager';
import { loadSkills } from '../skills/skill-registry';
import { probeExitCode, probeProfile } from '../llm/probe';
import { listProviderModels } from '../llm/provider-models';
import { sharedReachability, type Reachability } from '../llm/reachability';
import { resolveApiKey, writeCustomProvider } from '../models';
import { sofficePath } from '../renderers/soffice';
import { pythonFor } from '../tools/python-runtime';
import { defaultExecutor } from '../sandbox/select-executor';
import { sourceStatus } from '../sources/cache';
import { listBackups } from '../store';
import type { StorePort } from '../store/port';
import { sqliteDatabase } from '../store/sqlite-port';
import { checkWorkspaceFolder } from '../workspace/folder-policy';
import { readInside, resolveInside, taskFolders } from '../workspace/task-paths';
import { removeTaskDir, taskDir, ensureTaskDir } from '../workspace/layout';
import { addSourceFile, isTextMime, mimeOf, syncTaskFiles } from './task-files';
import { createOutlineHandlers } from './outline-service';
import { checkSlideContext, formatSlideRequest } from './slide-context';
import { templateHandlers, templatesDir, themesDir } from './templates';
import { createBranchHandlers } from './branches';
import { allowAlways, toolPermissionHandlers, type ToolPermissionDeps } from './tool-permissions';
import type { Tool } from '../tools/types';
import type * as ArtifactPreview from '../renderers/artifact-preview';
import { loadedMcpTools } from '../mcp/tools';
import { chooseProfile, setupStatus, usabilityCheck } from './model-choice';
import { readSearchSettings, searchHandlers, searchInfo, searchKeyEnv, writeSearchSettings } from './search-settings';
// ---- lib-search ----
import { embeddingHandlers, embeddingInfo, embeddingKeyEnv, readEmbeddingSettings, writeEmbeddingSettings } from './embedding-settings';
import type { McpManager } from '../mcp/manager';
import { createMcpHandlers } from './mcp-service';

// The renderers (deck and document specs, pptxgenjs, docx) load when a preview, an export or a deck
// version is first asked for, not at start-up.
async function readArtifactPreview(...args: Parameters<typeof ArtifactPreview.readArtifactPreview>): ReturnType<typeof ArtifactPreview.readArtifactPreview> {
  return (await import('../renderers/artifact-preview')).readArtifactPreview(...args);
}

const OPENABLE = new Set(['.pptx', '.docx', '.xlsx', '.pdf', '.png', '.jpg', '.jpeg', '.gif', '.webp', '.md', '.txt', '.csv']);

/** Files read over the contract as one payload; bigger ones are downloads only. */
const READ_LIMIT = 50 * 1024 * 1024;

export interface ServiceContext {
  store: StorePort;
  runs: RunManager;
  dataDir: string;
  resourcesDir: string;
  keys: KeyStore;
  env: NodeJS.ProcessEnv;
  /** Present in the desktop app: opening files with the system's applications. */
  desktop?: DesktopShell;
  /** Whether key-less (local) servers answer; the process-wide cache unless a test gives its own. */
  reachability?: Reachability;
  /** MCP servers (issue 12): one connection per server, shared by every task. */
  mcp: McpManager;
}

export interface DesktopShell {
  openPath(absPath: string): Promise<string>;
  showItemInFolder(absPath: string): void;
}

export function profileDirs(ctx: Pick<ServiceContext, 'dataDir' | 'resourcesDir'>) {
  return { builtin: join(ctx.resourcesDir, 'config', 'models'), user: join(ctx.dataDir, 'models') };
}

export function skillDirs(ctx: Pick<ServiceContext, 'dataDir' | 'resourcesDir'>) {
  return { builtin: join(ctx.resourcesDir, 'skills'), user: join(ctx.dataDir, 'skills') };
}

export function hasKey(profile: ModelProfile, keys: KeyStore, env: NodeJS.ProcessEnv): boolean {
  if (!profile.api_key_env) return true;
  return Boolean(env[profile.api_key_env]) || keys.has(profile.api_key_env);
}

/**
 * The task's model: its own choice, else its mode's default profile, else the settings default, else
 * the first usable chat profile (model-choice.ts). Never a profile that cannot work: a missing key or
 * a local server that did not answer throws a typed error naming the setting to change.
 */
export async function pickProfile(ctx: ServiceContext, task: Task): Promise<ModelProfile> {
  const { profiles } = loadModelProfiles(profileDirs(ctx));
  return chooseProfile({ profiles, task, defaultModel: await defaultModel(ctx), check: usableCheck(ctx) });
}

export function usableCheck(ctx: ServiceContext) {
  return usabilityCheck((p) => hasKey(p, ctx.keys, ctx.env), ctx.reachability ?? sharedReachability);
}

/** settings.default_model: values are stored unchecked, so a string is all it is trusted to be. */
async function defaultModel(ctx: Pick<ServiceContext, 'store'>): Promise<string | null> {
  return ((await ctx.store.settings.get('default_model')) as string | undefined) ?? null;
}

async function getTask(ctx: ServiceContext, id: string): Promise<Task> {
  const task = await ctx.store.tasks.get(id);
  if (!task) throw new NotFoundError(`No task ${id}`);
  return task;
}

async function settings(ctx: ServiceContext): Promise<Settings> {
  const [language, search, embedding] = [(await ctx.store.settings.get('language')) as Settings['language'] | undefined, await searchInfo(ctx), await embeddingInfo(ctx)];
  return {
    data_dir: ctx.dataDir,
    language: language ?? 'system',
    default_model: await defaultModel(ctx),
    // ---- web search (issue 12) ----
    ...(search ? { search } : {}),
    // ---- lib-search ----
    ...(embedding ? { embedding } : {}),
  };
}

export interface ServiceHooks {
  onSourcesAdded?: (taskId: string, files: FileEntry[]) => void;
  // ---- projects and libraries (issue 14) ----
  library?: Pick<ProjectDeps, 'indexer' | 'embedder'>;
}

export function createServiceHandlers(ctx: ServiceContext, hooks: ServiceHooks = {}): ServiceHandlers {
  const { store } = ctx;
  // Tool permissions read the tools' traits; the built-in catalog's traits do not depend on its options.
  // MCP tools are listed once their server has started (listing never starts one).
  // The catalog (every tool module, with its schemas and renderers) loads at the first question about
  // permissions, not at start-up: the handlers that read it await loadBuiltinTools() first.
  let builtinTools: Tool[] | undefined;
  const loadBuiltinTools = async () => {
    builtinTools ??= (await import('../tools/catalog')).toolCatalog();
  };
  const permissions: ToolPermissionDeps = {
    store,
    tools: () => {
      if (!builtinTools) throw new Error('the tool catalog is read before it was loaded');
      return [...builtinTools, ...loadedMcpTools(ctx.mcp)];
    },
  };
  const permissionHandlers = toolPermissionHandlers(permissions);
  const handlers: ServiceHandlers = {
    async createTask(input) {
      // ---- projects (issue 14): the project's defaults fill what the request leaves out. Its
      // default mode is the UI's to apply (the mode is a required input), so it is not used here.
      const project = input.project_id ? await requireOpenProject(store, input.project_id) : null;
      return store.tasks.create({
        id: newId('t'),
        mode: input.mode,
        title: input.title?.trim() ?? '',
        description: input.description ?? '',
        model: input.model ?? project?.default_model ?? null,
        reasoning: input.reasoning ?? null,
        ...(project?.default_approval_mode ? { approval_mode: project.default_approval_mode } : {}),
        project_id: project?.id ?? null,
      });
    },
    async listTasks(input) {
      return { tasks: await store.tasks.list({ status: input.status, q: input.q, ...(input.project_id ? { project_id: input.project_id } : {}) }) };
    },
    async getTask(input) {
      return getTask(ctx, input.task_id);
    },
    async updateTask(input) {
      await getTask(ctx, input.task_id);
      const { task_id, ...patch } = input;
      if (patch.workspace_path) patch.workspace_path = checkWorkspaceFolder(patch.workspace_path, ctx.dataDir);
      if (patch.project_id) await requireOpenProject(store, patch.project_id);
      const clean = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      return store.tasks.update(task_id, clean);
    },
    async deleteTask(input) {
      await getTask(ctx, input.task_id);
      const active = ctx.runs.activeRunFor(input.task_id);
      if (active) {
        await ctx.runs.cancel(input.task_id, active);
        await ctx.runs.waitForRun(active);
      }
      await store.tasks.delete(input.task_id);
      removeTaskDir(ctx.dataDir, input.task_id);
      return { ok: true };
    },
    async listMessages(input) {
      await getTask(ctx, input.task_id);
      return store.messages.list(input.task_id, { beforeSeq: input.before_seq, limit: input.limit });
    },
    async sendMessage(input) {
      const task = await getTask(ctx, input.task_id);
      // Before anything is stored: a task without a usable model fails now, saying what to set up.
      const profile = await pickProfile(ctx, task);
      // Slides selected in a deck's preview: checked against that deck, then written into the message.
      const content = input.context
        ? formatSlideRequest(checkSlideContext(input.context, await readArtifactPreview(taskDir(ctx.dataDir, task.id), input.context.artifact_path)), input.content)
        : input.content;
      ensureTaskDir(ctx.dataDir, task.id);
      await store.tasks.markMaterialized(task.id);
      if (!task.title) await store.tasks.update(task.id, { title: titleFrom(input.content) });
      const run_id = await ctx.runs.start(task.id, { userMessage: content, model: profile.id });
      return { run_id };
    },
    async listRuns(input) {
      await getTask(ctx, input.task_id);
      return { runs: await store.runs.list(input.task_id) };
    },
    async cancelRun(input) {
      await ctx.runs.cancel(input.task_id, input.run_id);
      return { ok: true };
    },
    async continueTask(input) {
      const task = await getTask(ctx, input.task_id);
      const profile = await pickProfile(ctx, task);
      return { run_id: await ctx.runs.start(task.id, { model: profile.id }) };
    },
    async listApprovals(input) {
      await getTask(ctx, input.task_id);
      return { approvals: await store.approvals.list(input.task_id) };
    },
    async decideApproval(input) {
      await getTask(ctx, input.task_id);
      // The question must exist for this task, asked by this run or by the run now re-asking it.
      const pending = (await store.approvals.list(input.task_id)).find((a) => a.call_id === input.call_id);
      const active = ctx.runs.activeRunFor(input.task_id);
      if (!pending || (pending.run_id !== input.run_id && active !== input.run_id)) {
        throw new NotFoundError(`No pending approval ${input.call_id} in run ${input.run_id}`);
      }
      // "Always allow this tool" is stored (or refused) before the run goes on.
      if (input.decision === 'always') {
        await loadBuiltinTools();
        await allowAlways(permissions, pending.name);
      }
      const decision = { decision: input.decision, reason: input.reason };
      if ((await ctx.runs.routeDecision(input.task_id, input.call_id, decision)) !== 'kept') return { ok: true };
      // No live run waits (Folio was restarted, or its worker died): the decision is kept and the task continues.
      if (!active) {
        const task = await getTask(ctx, input.task_id);
        await ctx.runs.start(task.id, { model: (await pickProfile(ctx, task)).id });
      }
      return { ok: true };
    },
    async getToolResult(input) {
      await getTask(ctx, input.task_id);
      const message = await store.messages.findToolResult(input.task_id, input.call_id);
      if (!message) throw new NotFoundError(`No result for tool call ${input.call_id}`);
      return { call_id: input.call_id, content: message.content, is_error: message.is_error };
    },
    async listFiles(input) {
      await getTask(ctx, input.task_id);
      await syncTaskFiles(store, ctx.dataDir, input.task_id);
      return { files: await store.files.list(input.task_id) };
    },
    async addFiles(input) {
      await getTask(ctx, input.task_id);
      const files = [];
      for (const path of input.paths) files.push(await addSourceFile(store, ctx.dataDir, input.task_id, path, path));
      hooks.onSourcesAdded?.(input.task_id, files);
      return { files };
    },
    async readFile(input) {
      await getTask(ctx, input.task_id);
      const abs = resolveInside(taskDir(ctx.dataDir, input.task_id), input.path);
      let size: number;
      try {
        const stat = statSync(abs);
        if (!stat.isFile()) throw new Error('not a file');
        size = stat.size;
      } catch {
        throw new NotFoundError(`No file ${input.path} in this task`);
      }
      if (size > READ_LIMIT) throw new FolioError('payload_too_large', `${input.path} is larger than ${READ_LIMIT / 1024 / 1024} MB; open it from its folder`);
      const mime = mimeOf(abs);
      // Opened without following a link swapped in since the check (downloads go through here too).
      const bytes = await readInside(taskDir(ctx.dataDir, input.task_id), input.path, { maxBytes: READ_LIMIT });
      return isTextMime(mime)
        ? { path: input.path, mime, size, encoding: 'utf8', data: bytes.toString('utf8') }
        : { path: input.path, mime, size, encoding: 'base64', data: bytes.toString('base64') };
    },
    async deleteFile(input) {
      await getTask(ctx, input.task_id);
      const abs = resolveInside(taskDir(ctx.dataDir, input.task_id), input.path);
      if (!(await store.files.get(input.task_id, input.path)) && !safeIsFile(abs)) throw new NotFoundError(`No file ${input.path} in this task`);
      rmSync(abs, { force: true });
      await store.files.delete(input.task_id, input.path);
      return { ok: true };
    },
    async listSources(input) {
      await getTask(ctx, input.task_id);
      const root = taskDir(ctx.dataDir, input.task_id);
      return { sources: existsSync(root) ? await sourceStatus(root) : [] };
    },
    async getArtifactPreview(input) {
      await getTask(ctx, input.task_id);
      return readArtifactPreview(taskDir(ctx.dataDir, input.task_id), input.path);
    },
    async exportPdf(input) {
      await getTask(ctx, input.task_id);
      const { exportPdf } = await import('../renderers/pdf-export');
      const result = await exportPdf(taskDir(ctx.dataDir, input.task_id), input.path, { hiddenPaths: [ctx.dataDir], ...(input.notes ? { notes: true } : {}) });
      await syncTaskFiles(store, ctx.dataDir, input.task_id);
      return result;
    },
    async openPath(input) {
      await getTask(ctx, input.task_id);
      if (!ctx.desktop) throw new FolioError('unsupported', 'Opening files with system applications is only available in the desktop app; download the file instead.');
      const abs = resolveInside(taskDir(ctx.dataDir, input.task_id), input.path);
      if (!safeIsFile(abs)) throw new NotFoundError(`No file ${input.path} in this task`);
      // The model can write any file; only document and image types are handed to the system's
      // default application, so a written script or .desktop file is never launched this way.
      if (!input.reveal && !OPENABLE.has(extname(abs).toLowerCase())) {
        throw new FolioError('forbidden', `Folio opens only documents and images; use Show in folder for ${input.path}`);
      }
      if (input.reveal) ctx.desktop.showItemInFolder(abs);
      else {
        const failure = await ctx.desktop.openPath(abs);
        if (failure) throw new FolioError('unsupported', `The system could not open ${input.path}: ${failure}`);
      }
      return { ok: true };
    },
    async getCapabilities() {
      const python = pythonFor(defaultExecutor());
      return {
        desktop: Boolean(ctx.desktop),
        soffice: sofficePath() !== null,
        sandbox: defaultExecutor().status().active,
        python: python.available ? { available: true, version: python.version, packages: python.packages?.map((p) => p.module) ?? [] } : { available: false, version: null, packages: [] },
      };
    },
    async probeModel(input) {
      const { profiles } = loadModelProfiles(profileDirs(ctx));
      const profile = profiles.find((p) => p.id === input.profile_id);
      if (!profile) throw new NotFoundError(`No model profile ${input.profile_id}`);
      const report = await probeProfile(profile, resolveApiKey(profile, ctx.keys, ctx.env) ?? '', { needle: input.needle ?? false });
      return { ...report, exit_code: probeExitCode(report) };
    },
    async listModels() {
      const { profiles, warnings } = loadModelProfiles(profileDirs(ctx));
      const infos: ModelProfileInfo[] = profiles.map((p) => toProfileInfo(p, hasKey(p, ctx.keys, ctx.env)));
      return { profiles: infos, warnings };
    },
    async setApiKey(input) {
      const { profiles } = loadModelProfiles(profileDirs(ctx));
      // Model profiles' keys, and (issue 12) the configured web search backend's.
      // ---- lib-search: and the embedding profile's ----
      const known = [searchKeyEnv(await readSearchSettings(store)), embeddingKeyEnv(await readEmbeddingSettings(store))];
      if (!profiles.some((p) => p.api_key_env === input.env) && !known.includes(input.env)) {
        throw new FolioError('invalid_input', `No model profile or search backend, and no embedding profile, reads its key from ${input.env}`);
      }
      ctx.keys.set(input.env, input.key.trim());
      return { ok: true };
    },
    async listSkills() {
      const { skills, warnings } = loadSkills(skillDirs(ctx));
      return { skills: skills.map(({ name, description, source, path }) => ({ name, description, source, path })), warnings };
    },
    async getUsage() {
      return store.usage();
    },
    async getSettings() {
      return settings(ctx);
    },
    async getHealth() {
      // A core exists only once the database opened soundly; a damaged one is served by recovery-core.ts.
      // Backups are the desktop's (SQLite file) concern; a server database has its own.
      return { database: 'ok' as const, message: null, backup_at: store.dialect === 'sqlite' ? (listBackups(sqliteDatabase(store).name)[0]?.created_at ?? null) : null };
    },
    async restoreBackup(): Promise<MethodOutput<'restoreBackup'>> {
      throw new FolioError('conflict', 'The database is sound; there is nothing to restore.');
    },
    async updateSettings(input): Promise<MethodOutput<'updateSettings'>> {
      await store.transaction(async (tx) => {
        if (input.language !== undefined) await tx.settings.set('language', input.language);
        if (input.default_model !== undefined) await tx.settings.set('default_model', input.default_model);
        // ---- web search (issue 12) ----
        if (input.search !== undefined) await writeSearchSettings(tx, input.search);
        // ---- lib-search ----
        if (input.embedding !== undefined) await writeEmbeddingSettings(tx, input.embedding);
      });
      return settings(ctx);
    },
    // ---- deck outline (issue 11): approving sends its message through sendMessage above ----
    ...createOutlineHandlers(ctx, (input) => handlers.sendMessage(input)),
    // ---- Deck versions (deck-versions) ----
    async listDeckVersions(input) {
      await getTask(ctx, input.task_id);
      const { listDeckVersions } = await import('../renderers/deck/versions');
      return listDeckVersions(taskDir(ctx.dataDir, input.task_id), input.path);
    },
    async restoreDeckVersion(input) {
      const task = await getTask(ctx, input.task_id);
      // The agent may be editing the same spec: going back waits until it has finished.
      if (ctx.runs.activeRunFor(task.id)) throw new FolioError('conflict', 'The agent is working on this task; go back to a version once it has finished.');
      const root = taskDir(ctx.dataDir, task.id);
      const { restoreDeckVersion } = await import('../renderers/deck/render-version');
      const restored = await restoreDeckVersion(taskFolders({ root: task.workspace_path ?? root, taskRoot: root }), input.path, {
        themesDir: themesDir(ctx.dataDir),
        templatesDir: templatesDir(ctx.dataDir),
        check: { hiddenPaths: [ctx.dataDir] },
      });
      await syncTaskFiles(store, ctx.dataDir, task.id);
      return { path: restored.path, spec_path: restored.spec_path };
    },
    // ---- Templates (deck-template) ----
    ...templateHandlers(ctx.dataDir),
    // ---- Conversation branches (branches) ----
    ...createBranchHandlers(ctx, async (task) => (await pickProfile(ctx, task)).id),
    // ---- tool permissions (grants) ----
    async listToolPermissions(input) {
      await loadBuiltinTools();
      return permissionHandlers.listToolPermissions(input);
    },
    async setToolPermission(input) {
      await loadBuiltinTools();
      return permissionHandlers.setToolPermission(input);
    },
    // ---- first run: setup status and custom providers (first-run) ----
    async getSetupStatus(input) {
      const { profiles } = loadModelProfiles(profileDirs(ctx));
      return setupStatus({
        profiles,
        mode: input.mode ?? 'general',
        defaultModel: await defaultModel(ctx),
        check: usableCheck(ctx),
        hasKey: (p) => hasKey(p, ctx.keys, ctx.env),
        reachability: ctx.reachability ?? sharedReachability,
      });
    },
    async listProviderModels(input) {
      return { models: await listProviderModels(input.api_base, input.api_key === undefined ? {} : { apiKey: input.api_key }) };
    },
    async addCustomProvider(input) {
      // The models are read again, so the file records what the server says about each (its context).
      const offered = await listProviderModels(input.api_base, input.api_key === undefined ? {} : { apiKey: input.api_key });
      const missing = input.models.filter((id) => !offered.some((m) => m.id === id));
      if (missing.length > 0) throw new FolioError('invalid_input', `${input.api_base} does not offer ${missing.join(', ')}`);
      const dirs = profileDirs(ctx);
      const builtinStems = new Set(loadModelProfiles({ builtin: dirs.builtin }).profiles.map((p) => p.id.split('.')[0] ?? ''));
      return writeCustomProvider(dirs.user, builtinStems, ctx.keys, {
        name: input.name,
        apiBase: input.api_base,
        ...(input.api_key === undefined ? {} : { apiKey: input.api_key }),
        models: input.models.map((id) => offered.find((m) => m.id === id) ?? { id, context_length: null }),
      });
    },
    // ---- end first run ----
    // ---- web search (issue 12) ----
    ...searchHandlers(ctx),
    // ---- lib-search ----
    ...embeddingHandlers(ctx),
    // ---- MCP servers (issue 12) ----
    ...createMcpHandlers(ctx, hooks),
    // ---- projects and libraries (issue 14) ----
    ...createProjectHandlers({ store, dataDir: ctx.dataDir, ...hooks.library }),
  };
  return handlers;
}

function safeIsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A new task without a title is named after the first line of its first message. */
export function titleFrom(content: string): string {
  const line = content.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
