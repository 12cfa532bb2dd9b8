// Whether a provider can answer, in the words the setup screen and Settings both use: a provider with
// a key is ready once its key is set; a local server needs no key and is ready while it answers.
import type { TFunction } from 'i18next';

export interface ProviderReadiness {
  /** null: a key-less (local) server. */
  api_key_env: string | null;
  has_key: boolean;
  /** Key-less servers: whether it answered when last checked (null: not known). */
  reachable: boolean | null;
}

export function needsNoKey(p: Pick<ProviderReadiness, 'api_key_env'>): boolean {
  return p.api_key_env === null;
}

export function providerOk(p: ProviderReadiness): boolean {
  return needsNoKey(p) ? p.reachable === true : p.has_key;
}

/** A local server's state; not known yet reads as not running, as the setup screen has it. */
export function localServerState(reachable: boolean | null, t: TFunction): string {
  return reachable ? t('setup.localUp') : t('setup.localDown');
}

export function providerState(p: ProviderReadiness, t: TFunction): string {
  if (needsNoKey(p)) return localServerState(p.reachable, t);
  return p.has_key ? t('setup.keySet') : t('setup.keyMissing');
}
