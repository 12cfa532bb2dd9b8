// Whether a profile can be used now: it has its key, or, needing none (a local server such as
// Ollama), its server answered recently. The check itself is built where keys and reachability are
// known (assembly/model-choice.ts); sub-agents and the run assembly only call it.
import type { ModelProfile } from './profile-schema';

export type Usability = { ok: true } | { ok: false; reason: 'no_key' | 'unreachable' };
export type UsabilityCheck = (profile: ModelProfile) => Promise<Usability>;
