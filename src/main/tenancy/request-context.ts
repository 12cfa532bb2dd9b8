// What the service knows about the request being handled, for code far below the HTTP layer that
// must not be handed it through every call: who asks (for audit events of requests leaving the
// service) and the model keys the request brought (byo-keys.ts). Runs a request starts inherit it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Scope } from '../store/port';

/** Filled in as the request is understood (authentication sets the scope, routing the params). */
export interface RequestFacts {
  scope?: Scope;
  params?: Record<string, string>;
}

export interface RequestContext {
  facts: RequestFacts;
  keys: ReadonlyMap<string, string> | null;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runInRequest<T>(context: RequestContext, fn: () => Promise<T>): Promise<T> {
  return storage.run(context, fn);
}

export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}
