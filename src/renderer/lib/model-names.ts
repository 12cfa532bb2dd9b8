// Models by the names a person knows them by: a profile's own name ("DeepSeek V4 Flash"), with its
// provider's display name where two providers serve a model of the same name. A profile id
// (`deepseek.flash`, `local-fake.fake-model`) is the config's key and never shown; an id no profile
// has any more (a task or a past run may name one) is shown as the model part after the provider.
import type { TFunction } from 'i18next';
import type { ModelProfileInfo } from '../../shared/contract';
import { providerNameKey } from './providers';

type Profile = Pick<ModelProfileInfo, 'id' | 'name' | 'provider'>;

export function providerName(provider: string, t: TFunction): string {
  const key = providerNameKey(provider);
  return key ? t(key) : provider;
}

/** The name of the model a profile id stands for. */
export function modelName(id: string, profiles: readonly Pick<Profile, 'id' | 'name'>[]): string {
  const profile = profiles.find((p) => p.id === id);
  if (profile) return profile.name;
  const dot = id.indexOf('.');
  return dot > 0 && dot < id.length - 1 ? id.slice(dot + 1) : id;
}

/** Picker labels by profile id: the name, and the provider's name too where the name alone is ambiguous. */
export function modelLabels(profiles: readonly Profile[], t: TFunction): Map<string, string> {
  const count = new Map<string, number>();
  for (const p of profiles) count.set(p.name, (count.get(p.name) ?? 0) + 1);
  return new Map(profiles.map((p) => [p.id, (count.get(p.name) ?? 0) > 1 ? t('models.nameAtProvider', { name: p.name, provider: providerName(p.provider, t) }) : p.name]));
}
