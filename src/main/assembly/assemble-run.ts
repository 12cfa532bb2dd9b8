// Run assembly: turns a task, the scope's settings and the run manager's run context into
// everything the agent loop needs (profile, model client, secrets, one tool set, prompt, limits,
// tool context). The run manager calls the driver built here; nothing on the way from a message to
// the model climbs back up to the service.
import type { FinishReason, RunEventBody, Task } from '../../shared/contract';
import { FolioError } from '../../shared/errors';
import { runAgentLoop, type AgentLoopDeps, type ToolLookup } from '../agent/loop';
import { loadRuleFile } from '../agent/policy/rule-file';
import { DEFAULT_RULES } from '../agent/policy/rules';
import { createStoreConversation } from '../agent/store-conversation';
import { loadPromptTemplate, renderSystemPrompt, skillLanguageRule } from '../agent/system-prompt';
import { assertKey, createChatModel, estimateCost } from '../llm/openai-chat-model';
import type { ChatModel } from '../llm/types';
import { loadModelProfiles, planReasoning, resolveApiKey, withBroughtKeys, type KeyStore, type ModelProfile } from '../models';
import type { OutboundAudit } from '../net/outbound-audit';
import type { McpManager } from '../mcp/manager';
import { newId, type RunDriver, type RunDriverContext } from '../runs/run-manager';
import { resolveSearchConfig } from '../settings/search-settings';
import { loadSkills } from '../skills/skill-registry';
import { sourceNotes } from '../sources';
import { skillModelResolver } from '../subagents/skill-agents';
import { shownTaskFolder } from '../tools/shown-root';
import type { WebFetchToolOptions } from '../tools/web-fetch';
import { projectFolder, taskDir, templatesDir, themesDir } from '../workspace/layout';
import { readOutline } from '../workspace/outline-file';
import { taskLibraries, type EmbedderSource } from './library-access';
import { hasKey, pickProfile, profileDirs, skillDirs, usableCheck, type ProfileContext } from './profiles';
import { secretEnvNames } from './secrets';
import { outwardSecrets, scrubbingApprovals, scrubbingModel, scrubbingTools } from './outward-secrets';
import { scrubbedEvents } from './stream-scrubber';
import { assembleToolSet } from './tool-set';
import { gitConfigNotice, watchGitConfig } from './git-config-watch';

export interface RunAssemblyDeps extends ProfileContext {
  mcp: McpManager;
  /** The embedding client for library search (null: full text alone), built from the settings at each use with the run's keys, charged to it. */
  embedderFor: (work: { keys: KeyStore; outbound: OutboundAudit | null }) => EmbedderSource;
  /** Who a run's requests leaving the service are charged to (the team service's audit rows); null on the desktop. */
  runAudit: (run: ModelCallRun) => OutboundAudit | null;
  /** Test seam: build the chat model differently (e.g. tighter retry timings). */
  createModel?: (profile: ModelProfile, apiKey: string, outbound: OutboundAudit | null) => ChatModel;
  /** Test seam: web_fetch's address policy. */
  webFetch?: WebFetchToolOptions;
  /** Folders commands may not see besides the data folder (the team service's storage root). */
  hiddenPaths?: readonly string[];
  /** Checked before every model call (the team service's token and money quotas); the call that crosses it finishes. */
  beforeModelCall?: (profile: ModelProfile, run: ModelCallRun) => Promise<void>;
  /** After every model call that answered, with its tokens and its time (the team service's metrics and spend). */
  afterModelCall?: (profile: ModelProfile, usage: { promptTokens: number; completionTokens: number }, seconds: number, run: ModelCallRun) => void | Promise<void>;
  /**
   * The tier of the data folder's approval rules (agent/policy/rule-file.ts), evaluated with Folio's
   * defaults and the task's project's rules (`project` tier) by the one engine: `user` on the desktop,
   * `team` in the team service (the tenant's folder).
   */
  ruleTier: 'user' | 'team';
  /**
   * Asked around every call that may write in the task folder (the team service's storage quota):
   * a message before refuses the call, one after turns its result into an error; both reach the model as data.
   */
  storage?: {
    beforeWrite(taskId: string): Promise<string | null>;
    afterWrite(taskId: string): Promise<string | null>;
  };
  /** After each run, whatever its end (the task folder's files are synced into the store). */
  afterRun?: (taskId: string) => Promise<void>;
}

/** Every tool but the read-only ones passes `storage` before and after it runs. */
function storageGated(tools: ToolLookup, taskId: string, storage: NonNullable<RunAssemblyDeps['storage']>): ToolLookup {
  return {
    schemas: () => tools.schemas(),
    get(name) {
      const tool = tools.get(name);
      if (!tool || tool.traits.kind === 'read') return tool;
      return {
        ...tool,
        async execute(args, ctx) {
          const refused = await storage.beforeWrite(taskId);
          if (refused !== null) return { content: refused, isError: true };
          const result = await tool.execute(args, ctx);
          const over = await storage.afterWrite(taskId);
          return over === null ? result : { ...result, content: `${result.content}\n\n${over}`, isError: true };
        },
      };
    },
  };
}

/** The run a model call belongs to. */
export interface ModelCallRun {
  taskId: string;
  runId: string;
}

/** Everything one run needs: the loop's inputs and the task they were built for. */
export interface RunSetup {
  task: Task;
  profile: ModelProfile;
  loop: AgentLoopDeps;
  /** Every secret the run's events must not carry (outward-secrets.ts). */
  secrets: readonly string[];
  /** A coding task's repository, and what of its git configuration was last reported. */
  gitWatch?: { repo: string; reported: string };
}

/** A model whose every call first passes `before` and is reported to `after` once it answered. */
function meteredModel(model: ChatModel, profile: ModelProfile, run: ModelCallRun, deps: Pick<RunAssemblyDeps, 'beforeModelCall' | 'afterModelCall'>): ChatModel {
  const { beforeModelCall: before, afterModelCall: after } = deps;
  if (!before && !after) return model;
  return {
    async *stream(request, signal) {
      await before?.(profile, run);
      const started = performance.now();
      for await (const event of model.stream(request, signal)) {
        if (event.type === 'done') await after?.(profile, event.usage, (performance.now() - started) / 1000, run);
        yield event;
      }
    },
  };
}

/**
 * Builds the run. It yields what the person should see while it works (MCP servers starting, a
 * reasoning setting the profile cannot honour) and returns the loop's inputs.
 */
export async function* assembleRun(scopeDeps: RunAssemblyDeps, run: RunDriverContext): AsyncGenerator<RunEventBody, RunSetup> {
  // The keys the starting request brought come first, for everything this run reads a key for.
  const deps: RunAssemblyDeps = { ...scopeDeps, keys: withBroughtKeys(scopeDeps.keys, run.brought) };
  const { store, keys, env } = deps;
  const callRun: ModelCallRun = { taskId: run.taskId, runId: run.runId };
  const outbound = deps.runAudit(callRun);
  const task = await store.tasks.get(run.taskId);
  if (!task) throw new FolioError('not_found', `No task ${run.taskId}`);
  const profile = await pickProfile(deps, task);
  const apiKey = resolveApiKey(profile, keys, env) ?? '';
  assertKey(profile, apiKey);
  const { profiles } = loadModelProfiles(profileDirs(deps));
  const secrets = await outwardSecrets(deps, profiles);
  const build = (p: ModelProfile, key: string) => scrubbingModel(deps.createModel ? deps.createModel(p, key, outbound) : createChatModel(p, key, { outbound }), secrets);
  const built = build(profile, apiKey);
  const model = meteredModel(built, profile, callRun, deps);

  const skills = () => loadSkills(skillDirs(deps)).skills;
  const secretNames = await secretEnvNames(store, profiles);
  const libraries = await taskLibraries(store, task, deps.embedderFor({ keys, outbound }));
  const { pickVisionProfile } = await import('../tools/ocr');
  const ownFolder = taskDir(deps.dataDir, task.id);
  const root = task.workspace_path ?? ownFolder;
  const template = loadPromptTemplate(deps.resourcesDir);
  const approvals = scrubbingApprovals({ ...run.approvals, mode: async () => (await store.tasks.get(task.id))?.approval_mode ?? 'ask' }, secrets);
  const latestUser = (await store.messages.all(task.id)).findLast((m) => m.role === 'user')?.content ?? null;

  const toolSet = yield* assembleToolSet({
    catalog: {
      searchLibrary: libraries.hasFiles,
      secretNames: () => secretNames,
      // Shell and scripts run sandboxed (bubblewrap, where available) with the data folder hidden:
      // it holds keys.json and every other task.
      hiddenPaths: [deps.dataDir, ...(deps.hiddenPaths ?? [])],
      themesDir: themesDir(deps.dataDir),
      templatesDir: templatesDir(deps.dataDir),
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
      // Read at each call, so Settings changes apply mid-task.
      search: () => resolveSearchConfig(deps),
      ...(deps.webFetch ? { webFetch: deps.webFetch } : {}),
      skillsUserDir: skillDirs(deps).user,
    },
    mcp: deps.mcp,
    servers: task.mcp_servers,
    outbound,
    skills: {
      skills,
      reasoning: task.reasoning,
      languageRule: skillLanguageRule(template, latestUser),
      taskFolder: shownTaskFolder(root),
      resolveModel: skillModelResolver({
        profiles,
        task: { profile, model },
        check: usableCheck(deps),
        build: (p) => meteredModel(build(p, resolveApiKey(p, keys, env) ?? ''), p, callRun, deps),
      }),
    },
    approvals,
    store,
    taskId: task.id,
    signal: run.signal,
  });

  const basePrompt = renderSystemPrompt(template, {
    taskFolder: shownTaskFolder(root),
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
  // A coding task's repository: settings and hooks git would run outside the sandbox are said at once.
  const gitWatch = task.workspace_path ? gitConfigNotice(task.workspace_path) : null;
  if (gitWatch?.event) yield gitWatch.event;
  const systemPrompt = toolSet.unavailable.length > 0 ? `${basePrompt}\n\n${toolSet.unavailable.join('\n')}` : basePrompt;
  return {
    task,
    profile,
    secrets,
    ...(gitWatch && task.workspace_path ? { gitWatch: { repo: task.workspace_path, reported: gitWatch.key } } : {}),
    loop: {
      model,
      reasoning: task.reasoning,
      tools: scrubbingTools(deps.storage ? storageGated(toolSet.tools, task.id, deps.storage) : toolSet.tools, secrets),
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
        outbound,
      },
      approvals,
      callStates: run.callStates,
      approvalRules: [
        ...DEFAULT_RULES,
        ...(await loadRuleFile(deps.dataDir, deps.ruleTier)),
        ...(task.project_id ? await loadRuleFile(deps.dataDir, 'project', projectFolder(task.project_id)) : []),
      ],
      conversation: await createStoreConversation(store, task.id, run.runId, newId),
    },
  };
}

/** The run manager's driver: assemble the run, then run the loop on it. */
export function createRunDriver(deps: RunAssemblyDeps): RunDriver {
  return async function* drive(run): AsyncGenerator<RunEventBody, FinishReason> {
    const setup = yield* assembleRun(deps, run);
    try {
      const loop = runAgentLoop(setup.loop, run.signal);
      return yield* scrubbedEvents(setup.gitWatch ? watchGitConfig(loop, setup.gitWatch.repo, setup.gitWatch.reported) : loop, setup.secrets);
    } finally {
      await deps.afterRun?.(setup.task.id).catch(() => undefined);
    }
  };
}
