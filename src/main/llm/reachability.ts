// Whether a key-less (local) provider's server is up, asked with one short request and remembered
// briefly, so picking a profile never waits on a dead local server and rarely waits on a live one.

export interface Reachability {
  /** Resolves true when the server at `apiBase` answered anything at all within the timeout. */
  isReachable(apiBase: string): Promise<boolean>;
}

export interface ReachabilityOptions {
  timeoutMs?: number;
  /** How long an answer is trusted; a down server is asked again sooner, since people start it. */
  upTtlMs?: number;
  downTtlMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
}

export function createReachability(opts: ReachabilityOptions = {}): Reachability {
  const timeoutMs = opts.timeoutMs ?? 1500;
  const upTtlMs = opts.upTtlMs ?? 30_000;
  const downTtlMs = opts.downTtlMs ?? 5_000;
  const doFetch = opts.fetch ?? fetch;
  const now = opts.now ?? Date.now;
  const known = new Map<string, { up: boolean; at: number }>();
  // Concurrent callers share one request instead of each opening a connection.
  const inFlight = new Map<string, Promise<boolean>>();

  const ask = async (apiBase: string): Promise<boolean> => {
    try {
      // `/models` is cheap on every OpenAI-compatible server; any HTTP answer (even 404) means it is up.
      const res = await doFetch(`${apiBase}/models`, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
      await res.body?.cancel().catch(() => undefined);
      return true;
    } catch {
      return false;
    }
  };

  return {
    isReachable(apiBase) {
      const cached = known.get(apiBase);
      if (cached && now() - cached.at < (cached.up ? upTtlMs : downTtlMs)) return Promise.resolve(cached.up);
      const pending = inFlight.get(apiBase);
      if (pending) return pending;
      const request = ask(apiBase).then((up) => {
        known.set(apiBase, { up, at: now() });
        inFlight.delete(apiBase);
        return up;
      });
      inFlight.set(apiBase, request);
      return request;
    },
  };
}

/** The process-wide cache the service uses unless a test gives its own. */
export const sharedReachability: Reachability = createReachability();
