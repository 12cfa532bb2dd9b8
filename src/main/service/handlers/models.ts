// Model profiles and providers: list, probe, keys, the first-run setup status and custom providers.
import type { ModelProfileInfo, ServiceHandlers } from '../../../shared/contract';
import { FolioError, NotFoundError } from '../../../shared/errors';
import { setupStatus } from '../../assembly/model-choice';
import { defaultModel, hasKey, profileDirs, usableCheck } from '../../assembly/profiles';
import { probeExitCode, probeProfile } from '../../llm/probe';
import { listProviderModels } from '../../llm/provider-models';
import { sharedReachability } from '../../llm/reachability';
import { loadModelProfiles, resolveApiKey, toProfileInfo, writeCustomProvider } from '../../models';
import { embeddingKeyEnv, readEmbeddingSettings } from '../../settings/embedding-settings';
import { readSearchSettings, searchKeyEnv } from '../../settings/search-settings';
import type { ServiceContext } from '../context';

export type ModelHandlers = Pick<ServiceHandlers, 'probeModel' | 'listModels' | 'setApiKey' | 'getSetupStatus' | 'listProviderModels' | 'addCustomProvider'>;

export function modelHandlers(ctx: ServiceContext): ModelHandlers {
  const { store } = ctx;
  return {
    async probeModel(input) {
      const { profiles } = loadModelProfiles(profileDirs(ctx));
      const profile = profiles.find((p) => p.id === input.profile_id);
      if (!profile) throw new NotFoundError(`No model profile ${input.profile_id}`);
      const report = await probeProfile(profile, resolveApiKey(profile, ctx.keys, ctx.env) ?? '', { needle: input.needle ?? false, outbound: ctx.outbound });
      return { ...report, exit_code: probeExitCode(report) };
    },
    async listModels() {
      const { profiles, warnings } = loadModelProfiles(profileDirs(ctx));
      const infos: ModelProfileInfo[] = profiles.map((p) => toProfileInfo(p, hasKey(p, ctx.keys, ctx.env)));
      return { profiles: infos, warnings };
    },
    async setApiKey(input) {
      const { profiles } = loadModelProfiles(profileDirs(ctx));
      // Model profiles' keys, the configured web search backend's and the embedding profile's.
      const known = [searchKeyEnv(await readSearchSettings(store)), embeddingKeyEnv(await readEmbeddingSettings(store))];
      if (!profiles.some((p) => p.api_key_env === input.env) && !known.includes(input.env)) {
        throw new FolioError('invalid_input', `No model profile or search backend, and no embedding profile, reads its key from ${input.env}`);
      }
      ctx.keys.set(input.env, input.key.trim());
      return { ok: true };
    },
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
      return { models: await listProviderModels(input.api_base, { outbound: ctx.outbound, ...(input.api_key === undefined ? {} : { apiKey: input.api_key }) }) };
    },
    async addCustomProvider(input) {
      // The models are read again, so the file records what the server says about each (its context).
      const offered = await listProviderModels(input.api_base, { outbound: ctx.outbound, ...(input.api_key === undefined ? {} : { apiKey: input.api_key }) });
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
  };
}
