// Where a scope's model profiles and skills live, and which profile a task runs on. Shared by the
// run assembly (each run) and the service (sending a message fails early without a usable model).
import { join } from 'node:path';
import type { Task } from '../../shared/contract';
import { sharedReachability, type Reachability } from '../llm/reachability';
import { loadModelProfiles, operatorKey, operatorModels, type KeyStore, type ModelProfile } from '../models';
import type { StorePort } from '../store/port';
import { chooseProfile, usabilityCheck } from './model-choice';

/** What choosing a profile needs to know about the scope. */
export interface ProfileContext {
  store: StorePort;
  dataDir: string;
  resourcesDir: string;
  keys: KeyStore;
  env: NodeJS.ProcessEnv;
  /** Whether key-less (local) servers answer; the process-wide cache unless a test gives its own. */
  reachability?: Reachability;
}

export function profileDirs(ctx: Pick<ProfileContext, 'dataDir' | 'resourcesDir'>) {
  const operator = operatorModels()?.path;
  return { builtin: join(ctx.resourcesDir, 'config', 'models'), user: join(ctx.dataDir, 'models'), ...(operator ? { operator } : {}) };
}

export function skillDirs(ctx: Pick<ProfileContext, 'dataDir' | 'resourcesDir'>) {
  return { builtin: join(ctx.resourcesDir, 'skills'), user: join(ctx.dataDir, 'skills') };
}

export function hasKey(profile: ModelProfile, keys: KeyStore, env: NodeJS.ProcessEnv): boolean {
  if (profile.source === 'operator') return operatorKey(profile) !== undefined;
  if (!profile.api_key_env) return true;
  return Boolean(env[profile.api_key_env]) || keys.has(profile.api_key_env);
}

/**
 * The task's model: its own choice, else its mode's default profile, else the settings default, else
 * the first usable chat profile (model-choice.ts). Never a profile that cannot work: a missing key or
 * a local server that did not answer throws a typed error naming the setting to change.
 */
export async function pickProfile(ctx: ProfileContext, task: Task): Promise<ModelProfile> {
  const { profiles } = loadModelProfiles(profileDirs(ctx));
  return chooseProfile({ profiles, task, defaultModel: await defaultModel(ctx), check: usableCheck(ctx) });
}

export function usableCheck(ctx: Pick<ProfileContext, 'keys' | 'env' | 'reachability'>) {
  return usabilityCheck((p) => hasKey(p, ctx.keys, ctx.env), ctx.reachability ?? sharedReachability);
}

/** settings.default_model: values are stored unchecked, so a string is all it is trusted to be. */
export async function defaultModel(ctx: Pick<ProfileContext, 'store'>): Promise<string | null> {
  return ((await ctx.store.settings.get('default_model')) as string | undefined) ?? null;
}
