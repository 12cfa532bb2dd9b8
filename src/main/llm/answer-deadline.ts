// How long a check of a provider (the setup's model list, the key test) waits for the provider's
// first answer. A person is waiting at a button: a rejected key is answered at once (401/403 are
// never retried) and a provider that does not answer is given up on within this, so the screen
// answers within 5 s either way.
import { ProviderTimeoutError } from '../../shared/errors';

export const ANSWER_DEADLINE_MS = 4000;

export function answerTimeoutError(ms: number): ProviderTimeoutError {
  return new ProviderTimeoutError(`The provider did not answer within ${Math.round(ms / 100) / 10} s: check the address, the network and the key`);
}
