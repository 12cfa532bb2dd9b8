// Which profile a task uses, and whether any can be used at all. A profile is usable when it has its
// key, or, needing none (a local server such as Ollama), when its server answered recently. Nothing
// here picks an unusable profile: an explicit choice that cannot work and "nothing usable" both fail
// at once with an error naming the setting to change, instead of a run that waits and times out.
import type { Task, TaskMode } from '../../shared/contract';
import type { SetupProvider, SetupStatus } from '../../shared/contract/setup';
import { MissingApiKeyError, NoUsableModelError, ProviderUnreachableError, type FolioError } from '../../shared/errors';
import type { Reachability } from '../llm/reachability';
import type { ModelProfile, UsabilityCheck } from '../models';

export function usabilityCheck(hasKey: (p: ModelProfile) => boolean, reachability: Reachability): UsabilityCheck {
  return async (p) => {
    if (p.api_key_env !== null) return hasKey(p) ? { ok: true } : { ok: false, reason: 'no_key' };
    return (await reachability.isReachable(p.api_base)) ? { ok: true } : { ok: false, reason: 'unreachable' };
  };
}

export interface Choice {
  profiles: ModelProfile[];
  task: Pick<Task, 'model' | 'mode'>;
  /** The Settings default (`default_model`), if any. */
  defaultModel: string | null;
  check: UsabilityCheck;
}

/**
 * The task's own choice; else a usable profile whose `default_for` lists the task's mode; else the
 * Settings default; else the first usable chat profile. Among automatic candidates a profile with a
 * key comes before a key-less local one: adding a key is a deliberate act, a local server may just
 * happen to run. Throws a typed error when the choice cannot work.
 */
export async function chooseProfile({ profiles, task, defaultModel, check }: Choice): Promise<ModelProfile> {
  const byId = (id: string | null) => (id ? profiles.find((p) => p.id === id) : undefined);
  const chosen = byId(task.model);
  if (chosen) return explicit(chosen, 'task', check);
  const forMode = await firstUsable(
    profiles.filter((p) => p.default_for.includes(task.mode)),
    check,
  );
  if (forMode) return forMode;
  const fallback = byId(defaultModel);
  if (fallback) return explicit(fallback, 'default', check);
  const chat = await firstUsable(
    profiles.filter((p) => p.role === 'chat'),
    check,
  );
  if (chat) return chat;
  throw noUsableModel(profiles);
}

async function explicit(profile: ModelProfile, where: 'task' | 'default', check: UsabilityCheck): Promise<ModelProfile> {
  const usability = await check(profile);
  if (usability.ok) return profile;
  throw unusable(profile, where, usability.reason);
}

async function firstUsable(candidates: ModelProfile[], check: UsabilityCheck): Promise<ModelProfile | undefined> {
  const keyed = candidates.filter((p) => p.api_key_env !== null);
  for (const p of keyed) if ((await check(p)).ok) return p;
  const local = candidates.filter((p) => p.api_key_env === null);
  // Asked together: a dead server must not make the next one wait behind it.
  const answers = await Promise.all(local.map(check));
  return local.find((_, i) => answers[i]?.ok);
}

function unusable(p: ModelProfile, where: 'task' | 'default', reason: 'no_key' | 'unreachable'): FolioError {
  const whose = where === 'task' ? "This task's model" : 'The default model';
  const instead = where === 'task' ? 'or choose another model for this task' : 'or choose another default model in Settings → General';
  if (reason === 'no_key') {
    const env = p.api_key_env ?? '';
    return new MissingApiKeyError(
      `${whose} ${p.name} (${p.id}) has no API key: open Settings → Models and add a key for ${env} (or set the environment variable ${env}), ${instead}.`,
    );
  }
  return new ProviderUnreachableError(
    `${whose} ${p.name} (${p.id}) runs on ${p.api_base}, which did not answer: start that server (for Ollama: \`ollama serve\`), ${instead}.`,
  );
}

/** "No model is set up", listing the keys that would help and the local servers that could be started. */
export function noUsableModel(profiles: ModelProfile[]): NoUsableModelError {
  const keyed = unique(profiles.filter((p) => p.api_key_env !== null && p.role === 'chat').map((p) => `${p.provider} (${p.api_key_env ?? ''})`));
  const local = unique(profiles.filter((p) => p.api_key_env === null && p.role === 'chat').map((p) => `${p.provider} at ${p.api_base}`));
  const ways = [
    keyed.length > 0 ? `add a key for ${keyed.join(', ')}` : 'add a provider with its base URL and key',
    ...(local.length > 0 ? [`start ${local.join(', ')}`] : []),
  ];
  return new NoUsableModelError(`No model is set up: open Settings → Models and ${ways.join(', or ')}.`);
}

/** The setup screen's view: providers grouped as the profiles name them, local servers asked once each. */
export async function setupStatus(choice: Omit<Choice, 'task'> & { mode: TaskMode; hasKey: (p: ModelProfile) => boolean; reachability: Reachability }): Promise<SetupStatus> {
  const groups = new Map<string, SetupProvider>();
  for (const p of choice.profiles) {
    const key = `${p.provider}\u0000${p.api_key_env ?? ''}\u0000${p.api_base}`;
    let group = groups.get(key);
    if (!group) {
      group = { provider: p.provider, api_base: p.api_base, api_key_env: p.api_key_env, has_key: p.api_key_env === null || choice.hasKey(p), reachable: null, source: p.source, profiles: [] };
      groups.set(key, group);
    }
    group.profiles.push({ id: p.id, name: p.name, role: p.role });
  }
  const providers = [...groups.values()];
  await Promise.all(
    providers.filter((g) => g.api_key_env === null).map(async (g) => void (g.reachable = await choice.reachability.isReachable(g.api_base))),
  );
  let problem: string | null = null;
  try {
    await chooseProfile({ ...choice, task: { model: null, mode: choice.mode } });
  } catch (err) {
    problem = err instanceof Error ? err.message : String(err);
  }
  return { ready: problem === null, mode: choice.mode, problem, providers };
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
