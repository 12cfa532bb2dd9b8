// Skills that run as sub-agents (seed 000): an agent skill is offered to the model as the tool
// `skill_<name>`; calling it runs the same agent loop (agent/loop.ts) nested inside the call, with
// the skill's body (plus the task's language rule) as its system prompt, its allowed tools, its
// model and its own turn limit. Its final answer is the tool result. Its events are passed up
// through the calling tool (ToolContext.emit), tagged with the calling call's id and the level, so
// the run manager adds its usage to the run and the task and the UI shows it inside the call's card.
//
// Guards, each a tool error the calling model can act on: a skill already on the chain (a cycle),
// a fourth level, a tool the skill names that does not exist, a model it names that cannot be used.
//
// Cancel: the nested loop runs on the run's own abort signal, so a cancel stops every level at once
// (waiting approvals included) and the outer call ends "Cancelled while running."
// Crash: a nested conversation lives in memory only; the outer call is the unit that is stored. On
// Continue the outer call is settled like any other (agent/loop.ts settleUnresolvedCalls): a skill
// whose tools are all read-only is simply run again; one that may write is answered "interrupted"
// so nothing runs twice. Approvals a nested run left are dropped when its call ends and at the start
// of every run (`isNestedCallId`): a nested question never outlives the call that asked it.
import type { ReasoningMode, RunEventBody, ToolKind } from '../../shared/contract';
import { FolioError } from '../../shared/errors';
import { NESTED_CALL_SEPARATOR } from '../../shared/contract';
import { z } from 'zod';
import { runAgentLoop, type ApprovalPort, type ToolLookup } from '../agent/loop';
import { createMemoryConversation } from '../agent/memory-conversation';
import type { ChatModel, ToolSchema } from '../llm/types';
import type { ModelProfile, UsabilityCheck } from '../models';
import { DEFAULT_SKILL_TURNS, type Skill, type SkillAgentSpec } from '../skills/skill-registry';
import { toolSchema, type ToolRegistry } from '../tools/registry';
import { NO_PATHS, ToolError, type Tool, type ToolContext, type ToolResult } from '../tools/types';

/** Levels of skills calling skills: the task's agent calls level 1; a fourth level is refused. */
export const MAX_SKILL_DEPTH = 3;
export const SKILL_TOOL_PREFIX = 'skill_';

export const skillToolName = (skill: string): string => `${SKILL_TOOL_PREFIX}${skill}`;

/** Whether a call id was made inside a nested run (`<parent>/<id>`). */
export const isNestedCallId = (callId: string): boolean => callId.includes(NESTED_CALL_SEPARATOR);

export interface ResolvedSkillModel {
  id: string;
  model: ChatModel;
  reliableContext: number;
  price: { input: number; output: number };
}

export interface SkillAgentDeps {
  /** The skills on disk, read at each model turn: a skill written mid-task is offered from the next turn. */
  skills: () => Skill[];
  /** The run's own tools (no skill tools). */
  base: ToolRegistry;
  /** The model for a skill's `model` field (null: the task's own); throws ToolError when it cannot be used. */
  resolveModel: (spec: string | null) => Promise<ResolvedSkillModel>;
  /** The run's approvals: a nested question goes through the same pending-approval flow as a top-level one. */
  approvals: ApprovalPort;
  reasoning?: ReasoningMode | null;
  /** The task's language rule (system-prompt.ts), put into every level's prompt. */
  languageRule: string;
  /** The task folder as the top-level prompt names it. */
  taskFolder: string;
  /** Forgets pending approvals asked inside the nested run of this call. */
  dropNestedApprovals: (parentCallId: string) => Promise<void>;
}

/**
 * A skill's `model`: null is the task's own model; `worker` the first usable profile with the cheap
 * role (one with a key before a keyless local one), else the task's own; a profile id that profile,
 * which must be usable. A model that cannot be used is a tool error naming what to change.
 */
export function skillModelResolver(o: {
  profiles: ModelProfile[];
  task: { profile: ModelProfile; model: ChatModel };
  check: UsabilityCheck;
  build: (profile: ModelProfile) => ChatModel;
}): SkillAgentDeps['resolveModel'] {
  const resolved = (p: ModelProfile): ResolvedSkillModel => ({
    id: p.id,
    model: p.id === o.task.profile.id ? o.task.model : o.build(p),
    reliableContext: p.reliable_context,
    price: p.price,
  });
  return async (spec) => {
    if (spec === null || spec === o.task.profile.id) return resolved(o.task.profile);
    if (spec === 'worker') {
      const workers = o.profiles.filter((p) => p.role === 'worker').sort((a, b) => Number(a.api_key_env === null) - Number(b.api_key_env === null));
      for (const p of workers) if ((await o.check(p)).ok) return resolved(p);
      return resolved(o.task.profile);
    }
    const named = o.profiles.find((p) => p.id === spec);
    if (!named) throw new ToolError(`The skill names model "${spec}", which is not a configured profile (profiles: ${o.profiles.map((p) => p.id).join(', ')}).`);
    const usable = await o.check(named);
    if (!usable.ok) {
      throw new ToolError(`The skill's model ${named.id} cannot be used (${usable.reason === 'no_key' ? 'no API key: add it in Settings' : 'its server does not answer'}); fix that or change the skill's model.`);
    }
    return resolved(named);
  };
}

/**
 * The run's tool lookup: its own tools plus one `skill_<name>` per agent skill, re-read at every
 * model turn (schemas()), so a skill created by skill_create is callable from the next turn.
 */
export function createSkillToolLookup(deps: SkillAgentDeps): ToolLookup {
  let current = buildSkillTools(deps);
  return {
    get: (name) => deps.base.get(name) ?? current.offered.get(name),
    schemas: (): ToolSchema[] => {
      current = buildSkillTools(deps);
      return [...deps.base.schemas(), ...[...current.offered.values()].map(toolSchema)];
    },
  };
}

type AgentSkill = Skill & { agent: SkillAgentSpec };

/**
 * Agent skills are offered to the task's agent. Any skill may be named in another skill's `tools`
 * (proofread inside contract-review): one without agent fields then runs with the defaults, the
 * task's model, the read-only tools and the default turn limit.
 */
function buildSkillTools(deps: SkillAgentDeps): { offered: Map<string, Tool>; all: Map<string, Tool> } {
  const installed = deps.skills();
  const offeredNames = new Set(installed.filter((s) => s.agent !== null).map((s) => s.name));
  const skills: AgentSkill[] = installed.map((s) => (s.agent ? (s as AgentSkill) : { ...s, agent: { model: null, tools: null, maxTurns: DEFAULT_SKILL_TURNS, input: [], output: null } }));
  const byName = new Map(skills.map((s) => [s.name, s]));
  const all = new Map<string, Tool>();
  const offered = new Map<string, Tool>();
  const kindCache = new Map<string, ToolKind>();
  for (const skill of skills) {
    const tool = skillTool(skill, deps, () => all, kindOfSkill(skill, byName, deps.base, kindCache, new Set()));
    all.set(tool.name, tool);
    if (offeredNames.has(skill.name)) offered.set(tool.name, tool);
  }
  return { offered, all };
}

/** The names a skill may call: its `tools` (a bare skill name means that skill's tool), else the read-only ones. */
function allowedNames(spec: SkillAgentSpec, skillNames: ReadonlySet<string>, base: ToolRegistry): string[] {
  if (spec.tools === null) return base.list().filter((t) => t.traits.kind === 'read').map((t) => t.name);
  return spec.tools.map((n) => (skillNames.has(n) && !base.get(n) ? skillToolName(n) : n));
}

/**
 * A skill whose every tool (through nested skills too) only reads is `read`: it may run beside
 * other reads and is simply re-run after a crash. Anything else is `edit`, run in order.
 */
function kindOfSkill(skill: AgentSkill, byName: Map<string, AgentSkill>, base: ToolRegistry, cache: Map<string, ToolKind>, seen: Set<string>): ToolKind {
  const cached = cache.get(skill.name);
  if (cached) return cached;
  seen.add(skill.name);
  let kind: ToolKind = 'read';
  for (const name of allowedNames(skill.agent, new Set(byName.keys()), base)) {
    const inner = name.startsWith(SKILL_TOOL_PREFIX) ? byName.get(name.slice(SKILL_TOOL_PREFIX.length)) : undefined;
    // A cycle is refused when called; for the kind it counts as whatever the rest makes it.
    const k = inner ? (seen.has(inner.name) ? 'read' : kindOfSkill(inner, byName, base, cache, seen)) : (base.get(name)?.traits.kind ?? 'read');
    if (k !== 'read') kind = 'edit';
  }
  cache.set(skill.name, kind);
  return kind;
}

/**
 * One schema per spec: the skills' tools are rebuilt for every turn's tool list, and a new schema
 * object each time would defeat toolSchema's cache (the JSON schema sent to the model).
 */
const parameterSchemas = new WeakMap<SkillAgentSpec, z.ZodObject>();

function parametersFor(spec: SkillAgentSpec): z.ZodObject {
  let schema = parameterSchemas.get(spec);
  if (!schema) {
    schema = buildParameters(spec);
    parameterSchemas.set(spec, schema);
  }
  return schema;
}

function buildParameters(spec: SkillAgentSpec): z.ZodObject {
  if (spec.input.length === 0) {
    return z.object({ request: z.string().min(1).describe('What the skill should do, with every detail it needs: it does not see this conversation.') });
  }
  const shape: Record<string, z.ZodType> = {};
  for (const arg of spec.input) shape[arg.name] = arg.required ? z.string().describe(arg.description) : z.string().optional().describe(arg.description);
  return z.object(shape);
}

function skillTool(skill: AgentSkill, deps: SkillAgentDeps, all: () => Map<string, Tool>, kind: ToolKind): Tool {
  const spec = skill.agent;
  return {
    name: skillToolName(skill.name),
    description: `${skill.description}\n(Runs the "${skill.name}" skill as a sub-agent; its final answer is this tool's result.)`,
    parameters: parametersFor(spec),
    traits: { kind, runsCode: false, network: false, paths: NO_PATHS, writesArtifacts: false, endsTurn: false, delegates: true },
    execute: (args, ctx) => runSkill(skill, spec, args as Record<string, string | undefined>, ctx, deps, all),
  };
}

async function runSkill(
  skill: Skill,
  spec: SkillAgentSpec,
  args: Record<string, string | undefined>,
  ctx: ToolContext,
  deps: SkillAgentDeps,
  all: () => Map<string, Tool>,
): Promise<ToolResult> {
  const chain = ctx.skillChain ?? [];
  const path = [...chain, skill.name].join(' → ');
  if (chain.includes(skill.name)) {
    throw new ToolError(`Refused: skill "${skill.name}" is already running on this chain (${path}); a skill cannot call itself, directly or through other skills. Do this step yourself.`);
  }
  if (chain.length >= MAX_SKILL_DEPTH) {
    throw new ToolError(`Refused: calling skill "${skill.name}" here would be level ${chain.length + 1} (${path}); skills nest at most ${MAX_SKILL_DEPTH} levels. Do this step yourself.`);
  }
  const tools = nestedLookup(skill, spec, deps, all());
  const resolved = await deps.resolveModel(spec.model);
  const depth = chain.length + 1;
  const conversation = createMemoryConversation();
  conversation.push({ role: 'user', content: renderArguments(args) });
  let failure: string | null = null;
  // Nothing from the nested run is left asking once the call is over (or if a crash left some).
  await deps.dropNestedApprovals(ctx.callId);
  try {
    const loop = runAgentLoop(
      {
        model: prefixCallIds(resolved.model, ctx.callId),
        reasoning: deps.reasoning ?? null,
        tools,
        conversation: conversation.port,
        approvals: deps.approvals,
        systemPrompt: skillSystemPrompt(skill, spec, deps),
        limits: { maxIterations: spec.maxTurns, reliableContext: resolved.reliableContext, price: resolved.price },
        toolContext: { root: ctx.root, taskRoot: ctx.taskRoot, taskId: ctx.taskId, runId: ctx.runId, network: ctx.network, skillChain: [...chain, skill.name], outbound: ctx.outbound },
      },
      ctx.signal,
    );
    let next = await loop.next();
    while (!next.done) {
      const event: RunEventBody = next.value;
      if (event.type === 'error' && event.parent_call_id === undefined) failure = event.error.message;
      ctx.emit?.(event.parent_call_id === undefined ? { ...event, parent_call_id: ctx.callId, depth } : event);
      next = await loop.next();
    }
    const answer = lastAnswer(conversation.messages);
    switch (next.value) {
      case 'done':
        return { content: answer || `(skill ${skill.name} finished without a final answer)` };
      case 'max_turns':
        return {
          content: `Skill ${skill.name} stopped at its turn limit (${spec.maxTurns} turns) before a final answer.${answer ? ` Its last text:\n${answer}` : ''}`,
          isError: true,
        };
      case 'cancelled':
        throw new FolioError('cancelled', 'Cancelled while running.');
      case 'error':
        return { content: `Skill ${skill.name} failed: ${failure ?? 'unknown error'}`, isError: true };
    }
  } finally {
    await deps.dropNestedApprovals(ctx.callId);
  }
}

/** The tools one level may call: its allow-list, each name checked, and never skill_create's kind of surprise. */
function nestedLookup(skill: Skill, spec: SkillAgentSpec, deps: SkillAgentDeps, skillTools: Map<string, Tool>): ToolLookup {
  const skillNames = new Set([...skillTools.keys()].map((n) => n.slice(SKILL_TOOL_PREFIX.length)));
  const names = allowedNames(spec, skillNames, deps.base);
  const tools: Tool[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const tool = deps.base.get(name) ?? skillTools.get(name);
    if (tool) tools.push(tool);
    else missing.push(name);
  }
  if (missing.length > 0) throw new ToolError(`Skill ${skill.name} names tools that do not exist here: ${missing.join(', ')}. Its file (${skill.path}) needs fixing; do this step yourself.`);
  const byName = new Map(tools.map((t) => [t.name, t]));
  return { get: (name) => byName.get(name), schemas: () => tools.map(toolSchema) };
}

function skillSystemPrompt(skill: Skill, spec: SkillAgentSpec, deps: SkillAgentDeps): string {
  const output = spec.output ? `Write the files you produce under \`${spec.output}/\` (relative to the task folder).` : '';
  return [
    skill.body,
    '## Language',
    deps.languageRule,
    '## How you run',
    [
      `You are the "${skill.name}" skill, called as a tool by another agent working in the task folder ${deps.taskFolder}; paths are relative to it.`,
      'You see only the arguments below, not the conversation that led to them.',
      output,
      'Your last message without tool calls is returned to the caller as the result: make it complete and self-contained.',
    ]
      .filter(Boolean)
      .join(' '),
  ].join('\n\n');
}

function renderArguments(args: Record<string, string | undefined>): string {
  const lines = Object.entries(args)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${v}`);
  return lines.join('\n');
}

function lastAnswer(messages: { role: string; content: string }[]): string {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'assistant' && messages[i].content.trim()) return messages[i].content.trim();
  return '';
}

/**
 * A nested run's call ids are `<parent call id>/<id>`: unique within the run (providers reuse ids
 * like `call_0` in every conversation), routable by the run manager, and telling the UI where the
 * call belongs.
 */
function prefixCallIds(model: ChatModel, parentCallId: string): ChatModel {
  return {
    async *stream(request, signal) {
      for await (const ev of model.stream(request, signal)) {
        if (ev.type !== 'done') yield ev;
        else yield { ...ev, toolCalls: ev.toolCalls.map((c, i) => ({ ...c, id: `${parentCallId}${NESTED_CALL_SEPARATOR}${c.id || `call_${i}`}` })) };
      }
    },
  };
}
