// What a profile does with a task's reasoning setting ('none' | 'thinking' | 'max'), derived from the
// capabilities it declares (thinking_mode, thinking_param, reasoning_effort*). The request builder,
// the probe, the UI's list of modes and the run's "ignored" note all read this one table.
import type { ReasoningMode } from '../../shared/contract/entities';
import type { ModelProfile } from './profile-schema';

export type ReasoningProfile = Pick<ModelProfile, 'thinking_mode' | 'reasoning_effort_levels' | 'reasoning_effort' | 'reasoning_effort_for'>;

/** How one setting is sent: the thinking switch (toggle profiles) and the effort level, when any. */
export interface ReasoningPlan {
  /** What the model will actually do; differs from the request when the profile cannot honour it. */
  applied: ReasoningMode;
  /** For `toggle` profiles: switch thinking on or off. Undefined: send no switch. */
  thinking?: boolean;
  /** The `reasoning_effort` to send. Undefined: the profile's default rules apply. */
  effort?: string;
}

export const reasoningModeList: readonly ReasoningMode[] = ['none', 'thinking', 'max'];

/** The settings a profile honours as asked. A profile that cannot reason honours none of them. */
export function reasoningModes(profile: ReasoningProfile): ReasoningMode[] {
  if (profile.thinking_mode === 'none') return [];
  return reasoningModeList.filter((mode) => planReasoning(profile, mode).applied === mode);
}

export function planReasoning(profile: ReasoningProfile, requested: ReasoningMode): ReasoningPlan {
  const offLevel = profile.reasoning_effort_for.none;
  const maxLevel = profile.reasoning_effort_for.max;
  const defaultEffort = profile.reasoning_effort ?? undefined;
  switch (profile.thinking_mode) {
    case 'none':
      // Nothing to switch: the model answers without reasoning whatever the task asks.
      return { applied: 'none' };
    case 'toggle':
      if (requested === 'none') return { applied: 'none', thinking: false };
      if (requested === 'max' && maxLevel !== undefined) return { applied: 'max', thinking: true, effort: maxLevel };
      return { applied: 'thinking', thinking: true, ...(defaultEffort === undefined ? {} : { effort: defaultEffort }) };
    case 'always':
      if (requested === 'none' && offLevel !== undefined) return { applied: 'none', effort: offLevel };
      if (requested === 'max' && maxLevel !== undefined) return { applied: 'max', effort: maxLevel };
      return { applied: 'thinking', ...(defaultEffort === undefined ? {} : { effort: defaultEffort }) };
  }
}
