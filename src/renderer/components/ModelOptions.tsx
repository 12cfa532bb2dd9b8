// The <option>s of every model picker (the task's, the default, a project's, the setup test): each
// profile by its human name, a profile without a key shown as such and not choosable where `requireKey`.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ModelProfileInfo } from '../../shared/contract';
import { modelIdOf, modelLabel, modelLabels } from '../../shared/model-names';
import { useApp } from '../state/app-store';
import { plainT } from '../i18n/plain';

interface ModelOptionsProps {
  profiles: readonly ModelProfileInfo[];
  /** Profiles without a key are listed but disabled. */
  requireKey?: boolean;
  /** A value no profile has any more (a task keeps the id it was given): kept choosable so the picker tells the truth. */
  current?: string | null;
}

export function ModelOptions({ profiles, requireKey = false, current = null }: ModelOptionsProps) {
  const { t } = useTranslation();
  const labels = useMemo(() => modelLabels(profiles, t), [profiles, t]);
  const unknown = current !== null && current !== '' && !profiles.some((p) => p.id === current);
  return (
    <>
      {profiles.map((p) => {
        const name = labels.get(p.id) ?? p.name;
        return (
          <option
            key={p.id}
            value={p.id}
            disabled={requireKey && !p.has_key}
            title={p.has_key ? p.model : plainT('models.noKeyHint', { env: p.api_key_env ?? '' })}
          >
            {p.has_key ? t('models.option', { name }) : t('models.optionNoKey', { name })}
          </option>
        );
      })}
      {unknown && <option value={current}>{modelLabel(current, profiles, t)}</option>}
    </>
  );
}

/** The label of the model a profile id stands for, from the loaded profiles, and the model id for its tooltip. */
export function useModelLabel(id: string | null): { label: string; modelId: string } | null {
  const { t } = useTranslation();
  const profiles = useApp((s) => s.profiles);
  return useMemo(() => (id === null ? null : { label: modelLabel(id, profiles, t), modelId: modelIdOf(id, profiles) }), [id, profiles, t]);
}

/**
 * The empty choice of a picker whose blank means "the default model" (a task's, a project's): it
 * names the model that blank stands for, by its human name.
 */
export function DefaultModelOption({ defaultModel, profiles }: { defaultModel: string | null; profiles: readonly ModelProfileInfo[] }) {
  const { t } = useTranslation();
  const name = defaultModel === null ? null : modelLabel(defaultModel, profiles, t);
  return <option value="">{name ? t('chat.defaultModelNamed', { model: name }) : t('chat.defaultModel')}</option>;
}
