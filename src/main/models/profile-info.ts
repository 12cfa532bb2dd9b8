// The contract view of a profile: what the UI may know. Keys never appear here, only whether one exists.
import type { ModelProfileInfo } from '../../shared/contract';
import type { ModelProfile } from './profile-schema';
import { reasoningModes } from './reasoning';

export function toProfileInfo(profile: ModelProfile, hasKey: boolean): ModelProfileInfo {
  return {
    id: profile.id,
    provider: profile.provider,
    name: profile.name,
    model: profile.model,
    api_base: profile.api_base,
    api_key_env: profile.api_key_env,
    has_key: hasKey,
    role: profile.role,
    max_context: profile.max_context,
    reliable_context: profile.reliable_context,
    max_output: profile.max_output,
    parallel_tools: profile.parallel_tools,
    thinking_mode: profile.thinking_mode,
    reasoning_effort_levels: [...profile.reasoning_effort_levels],
    max_iterations: profile.max_iterations,
    temperature: profile.temperature,
    price: { input: profile.price.input, output: profile.price.output, currency: profile.price.currency },
    source: profile.source,
    reasoning_modes: reasoningModes(profile),
  };
}
