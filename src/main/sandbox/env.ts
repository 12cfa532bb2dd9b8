// The environment a model-written program starts with: an allowlist, not Folio's environment minus
// what looks secret. Folio's own variables (FOLIO_TOKEN, API keys under any name, cloud
// credentials) never reach it, whatever they are called.
import { SANDBOX_HOME } from './sandbox';

/** Variables a command needs to behave like it does in a terminal. */
const PASSED = new Set(['PATH', 'LANG', 'LANGUAGE', 'TERM', 'COLORTERM', 'TZ', 'USER', 'LOGNAME', 'SHELL']);
/** Certificate bundles (paths, not secrets): HTTPS clients fail without them on some systems. */
const CERTIFICATES = new Set(['SSL_CERT_FILE', 'SSL_CERT_DIR', 'NODE_EXTRA_CA_CERTS', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'GIT_SSL_CAINFO']);
/** What Windows programs cannot start without (commands are unsandboxed there). */
const WINDOWS = new Set([
  'SYSTEMROOT', 'WINDIR', 'COMSPEC', 'PATHEXT', 'TEMP', 'TMP', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA', 'PROGRAMDATA',
  'PROGRAMFILES', 'PROGRAMFILES(X86)', 'HOMEDRIVE', 'HOMEPATH', 'NUMBER_OF_PROCESSORS', 'PROCESSOR_ARCHITECTURE', 'OS',
]);
const PROXIES = new Set(['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY']);

const SECRET_NAME = /API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|PRIVATE_KEY|CREDENTIAL|ACCESS_KEY/iu;

export interface CommandEnvOptions {
  /** HOME for the program: the sandbox's private home, or the real one when unsandboxed. */
  home: string;
  /** TMPDIR for the program, when it differs from the parent's (the sandbox's private /tmp). */
  tmp?: string;
  /** Proxy settings pass only when the program may use the network (and never with a password in them). */
  network: boolean;
  /** Stored key names that must never pass, even if an allowlisted name were reused for one. */
  secretNames?: readonly string[];
}

/** The clean environment for a sandboxed (or, failing that, unsandboxed) program. */
export function commandEnv(parent: NodeJS.ProcessEnv | Record<string, string | undefined>, options: CommandEnvOptions): Record<string, string> {
  const secret = new Set((options.secretNames ?? []).map((n) => n.toUpperCase()));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    const upper = name.toUpperCase();
    if (SECRET_NAME.test(name) || secret.has(upper)) continue;
    const proxy = PROXIES.has(upper) && options.network && !/\/\/[^/]*@/u.test(value);
    if (PASSED.has(upper) || upper.startsWith('LC_') || CERTIFICATES.has(upper) || WINDOWS.has(upper) || proxy) out[name] = value;
  }
  out.HOME = options.home;
  if (options.tmp !== undefined) out.TMPDIR = options.tmp;
  else if (parent.TMPDIR !== undefined) out.TMPDIR = parent.TMPDIR;
  out.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  return out;
}

/** A copy of `env` without anything that looks like a credential, nor the names in `secretNames`. */
export function stripSecrets(env: NodeJS.ProcessEnv | Record<string, string | undefined>, secretNames: readonly string[] = []): Record<string, string> {
  const extra = new Set(secretNames.map((n) => n.toUpperCase()));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (SECRET_NAME.test(name) || extra.has(name.toUpperCase())) continue;
    out[name] = value;
  }
  return out;
}

/** The environment for a program started by `runProcess`: the sandbox's private home and /tmp when there is one. */
export function programEnv(
  parent: NodeJS.ProcessEnv | Record<string, string | undefined>,
  options: { sandboxed: boolean; network: boolean; secretNames?: readonly string[] },
): Record<string, string> {
  return commandEnv(parent, {
    home: options.sandboxed ? SANDBOX_HOME : (parent.HOME ?? parent.USERPROFILE ?? '/'),
    tmp: options.sandboxed ? '/tmp' : undefined,
    network: options.network,
    secretNames: options.secretNames,
  });
}
