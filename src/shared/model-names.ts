// Models by the names a person knows them by; modelLabel decides the label wherever a model is named
// (the pickers, the run footer, a project's default, Settings). A profile with a display name of its
// own ("DeepSeek V4 Flash") is called by it, with its provider's name where two share it. A profile
// whose name is only the model id (a provider added in the app: `fake-model`) is called by the name
// the person gave its provider ("本地模型"), with the model id after it where that provider has
// several such models. A profile id (`deepseek.flash`, `custom.fake-model`) is the config's key and
// never shown; an id no profile has any more (a task or a past run may name one) is shown as the
// model part after the provider.
import type { ModelProfileInfo } from './contract';
import type { Say } from './locales/say';
import { providerNameKey } from './providers';

type Profile = Pick<ModelProfileInfo, 'id' | 'name' | 'provider' | 'model'>;

export function providerName(provider: string, t: Say): string {
  const key = providerNameKey(provider);
  return key ? t(key, {}) : provider;
}

/** A profile's own display name; null where its name only repeats the model id. */
function displayName(p: Profile): string | null {
  return p.name.trim() !== '' && p.name !== p.model ? p.name : null;
}

function countBy<T>(items: readonly T[], key: (item: T) => string | null): Map<string, number> {
  const count = new Map<string, number>();
  for (const item of items) {
    const k = key(item);
    if (k !== null) count.set(k, (count.get(k) ?? 0) + 1);
  }
  return count;
}

/** Labels by profile id, each decided as the file's header says. */
export function modelLabels(profiles: readonly Profile[], t: Say): Map<string, string> {
  const named = countBy(profiles, displayName);
  const unnamedPerProvider = countBy(profiles, (p) => (displayName(p) === null ? p.provider : null));
  return new Map(
    profiles.map((p) => {
      const provider = providerName(p.provider, t);
      const name = displayName(p);
      if (name !== null) return [p.id, (named.get(name) ?? 0) > 1 ? t('modelNames.nameAtProvider', { name, provider }) : name];
      return [p.id, (unnamedPerProvider.get(p.provider) ?? 0) > 1 ? t('modelNames.providerModel', { provider, model: p.model }) : provider];
    }),
  );
}

/** The label of the model a profile id stands for, among the loaded profiles. */
export function modelLabel(id: string, profiles: readonly Profile[], t: Say): string {
  const label = modelLabels(profiles, t).get(id);
  if (label !== undefined) return label;
  const dot = id.indexOf('.');
  return dot > 0 && dot < id.length - 1 ? id.slice(dot + 1) : id;
}

/** What a label's tooltip adds: the model id the provider knows it by (the label may not show it). */
export function modelIdOf(id: string, profiles: readonly Pick<Profile, 'id' | 'model'>[]): string {
  return profiles.find((p) => p.id === id)?.model ?? id;
}
