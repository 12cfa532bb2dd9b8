// The chat header's reasoning picker: the task's setting (default / off / thinking / max), with the
// settings the task's profile cannot honour marked. A profile that cannot reason shows no picker at all
// (a row of "(not supported)" says nothing useful), unless the task still holds a setting from before.
import { useTranslation } from 'react-i18next';
import { ReasoningMode, type ModelProfileInfo, type Task } from '../../shared/contract';
import { useApp } from '../state/app-store';
import { useTasks } from '../state/tasks-store';
import { plainT } from '../i18n/plain';

export function ReasoningControl({ task }: { task: Task }) {
  const profiles = useApp((s) => s.profiles);
  const defaultModel = useApp((s) => s.settings?.default_model ?? null);
  const update = useTasks((s) => s.update);
  // The task's own profile, else the Settings default. When neither is known (a mode default picks
  // the profile at run time), every setting is offered and the run reports one it had to ignore.
  const profile = profiles.find((p) => p.id === (task.model ?? defaultModel));
  return <ReasoningPicker value={task.reasoning} profile={profile} onChange={(reasoning) => void update(task.id, { reasoning })} />;
}

/** The picker itself, without stores (rendered directly in tests). */
export function ReasoningPicker(props: {
  value: ReasoningMode | null;
  profile: Pick<ModelProfileInfo, 'name' | 'reasoning_modes'> | undefined;
  onChange: (value: ReasoningMode | null) => void;
}) {
  const { t } = useTranslation();
  const { value, profile } = props;
  const honoured = profile?.reasoning_modes ?? null;
  const cannotReason = honoured !== null && honoured.length === 0;
  const hint = cannotReason && profile ? plainT('reasoning.cannotReason', { name: profile.name }) : plainT('reasoning.hint');
  if (cannotReason && value === null) return null;

  return (
    <label className="control" title={hint} data-testid="reasoning-control">
      <span className="control-label">{t('reasoning.label')}</span>
      <select
        className="select"
        value={value ?? ''}
        disabled={cannotReason}
        aria-description={hint}
        onChange={(e) => props.onChange(e.target.value === '' ? null : (e.target.value as ReasoningMode))}
        data-testid="reasoning-picker"
      >
        <option value="" title={plainT('reasoning.defaultHint')}>
          {t('reasoning.default')}
        </option>
        {ReasoningMode.options.map((mode) => {
          const ok = honoured === null || honoured.includes(mode);
          return (
            // A setting already chosen stays selectable so the picker tells the truth.
            <option key={mode} value={mode} disabled={!ok && value !== mode}>
              {ok ? t(`reasoningModes.${mode}`) : t('reasoning.notSupported', { mode: t(`reasoningModes.${mode}`) })}
            </option>
          );
        })}
      </select>
    </label>
  );
}
