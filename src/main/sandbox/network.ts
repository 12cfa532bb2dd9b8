// What the model is told when a sandboxed program seems to have failed for want of the network, so
// it asks the person instead of retrying blindly.

/** Messages of resolvers and clients (curl, git, npm, pip, Node's fetch, Python) with no network. */
const NO_NETWORK =
  /Could not resolve host|Temporary failure in name resolution|Name or service not known|getaddrinfo|EAI_AGAIN|ENOTFOUND|ENETUNREACH|Network is unreachable|ECONNREFUSED|Connection refused|fetch failed|Failed to connect|unable to access '|NewConnectionError|Failed to establish a new connection/iu;

export const NETWORK_OFF_NOTE =
  '[The network is off for commands in this task. The person can turn it on with "Allow network" in the task header; ' +
  'a command that clearly needs it (curl, wget, git clone/fetch/pull/push, npm/pip/cargo install, ssh) asks them first.]';

export function looksLikeNetworkFailure(output: string): boolean {
  return NO_NETWORK.test(output);
}

/**
 * What a program may reach. The task's "allow network" switch gives `none` (the default) or `open`;
 * `{ allow }` names the only hosts a container may reach through an egress proxy (see
 * container-executor.ts for what that does and does not enforce). Bubblewrap can only cut the network
 * off or leave it on, so it treats an allowlist as `none`: it never grants more than it can enforce.
 */
export type NetworkPolicy = 'none' | 'open' | { readonly allow: readonly string[] };

/** The policy for the task's switch: on is `open`, off is `none`. */
export function networkPolicy(allowed: boolean): NetworkPolicy {
  return allowed ? 'open' : 'none';
}

/** Whether the policy lets the program reach anything beyond loopback. */
export function reachesNetwork(policy: NetworkPolicy): boolean {
  return policy !== 'none';
}
