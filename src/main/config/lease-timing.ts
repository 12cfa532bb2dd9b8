// How long a run's lease lives without renewal before a sweeper may end the run. Both the
// cluster (which renews and sweeps) and the team configuration (`--lease-ttl-ms`'s default) read
// it, so it lives below both layers.
export const DEFAULT_LEASE_TTL_MS = 15_000;
