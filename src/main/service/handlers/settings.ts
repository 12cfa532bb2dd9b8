// Settings: language, default model, the web search backend and the embedding profile, plus the
// tests of the last two.
import type { MethodOutput, ServiceHandlers, Settings } from '../../../shared/contract';
import { defaultModel } from '../../assembly/profiles';
import { embeddingHandlers, embeddingInfo, writeEmbeddingSettings } from '../../settings/embedding-settings';
import { searchHandlers, searchInfo, writeSearchSettings } from '../../settings/search-settings';
import type { ServiceContext, ServiceHooks } from '../context';

export type SettingsHandlers = Pick<ServiceHandlers, 'getSettings' | 'updateSettings' | 'testSearch' | 'testEmbedding'>;

async function settings(ctx: ServiceContext): Promise<Settings> {
  const [language, search, embedding] = [(await ctx.store.settings.get('language')) as Settings['language'] | undefined, await searchInfo(ctx), await embeddingInfo(ctx)];
  return {
    data_dir: ctx.dataDir,
    language: language ?? 'system',
    default_model: await defaultModel(ctx),
    ...(search ? { search } : {}),
    ...(embedding ? { embedding } : {}),
  };
}

export function settingsHandlers(ctx: ServiceContext, hooks: Pick<ServiceHooks, 'onEmbeddingChanged'>): SettingsHandlers {
  const { store } = ctx;
  return {
    async getSettings() {
      return settings(ctx);
    },
    async updateSettings(input): Promise<MethodOutput<'updateSettings'>> {
      await store.transaction(async (tx) => {
        if (input.language !== undefined) await tx.settings.set('language', input.language);
        if (input.default_model !== undefined) await tx.settings.set('default_model', input.default_model);
        if (input.search !== undefined) await writeSearchSettings(tx, input.search);
        if (input.embedding !== undefined) await writeEmbeddingSettings(tx, input.embedding);
      });
      const out = await settings(ctx);
      if (input.embedding !== undefined) hooks.onEmbeddingChanged?.();
      return out;
    },
    ...searchHandlers(ctx),
    ...embeddingHandlers(ctx),
  };
}
