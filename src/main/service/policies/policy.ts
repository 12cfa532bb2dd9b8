// Policies are declared layers over the service's handlers (quotas, team rules, usage): each one
// sees the handlers below it and returns the methods it changes. They are applied once, in the
// order given (the last is outermost), and the result is frozen: no handler is reassigned later.
import type { ServiceHandlers } from '../../../shared/contract';

export interface HandlerPolicy {
  /** Shown in errors and tests; says what the layer is for. */
  readonly name: string;
  /** The methods this layer answers, calling `inner` for the rest of the work. */
  wrap(inner: Readonly<ServiceHandlers>): Partial<ServiceHandlers>;
}

export function applyPolicies(base: ServiceHandlers, policies: readonly HandlerPolicy[]): Readonly<ServiceHandlers> {
  let handlers: Readonly<ServiceHandlers> = Object.freeze({ ...base });
  for (const policy of policies) handlers = Object.freeze({ ...handlers, ...policy.wrap(handlers) });
  return handlers;
}
