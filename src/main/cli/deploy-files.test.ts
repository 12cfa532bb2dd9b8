// The deploy files are written without Docker at hand, so what must hold is checked here by reading
// them: the build context keeps out the developer's data folder (keys.json, the database) and the
// host's node_modules, the worker runs as an unprivileged user, the proxy buffers neither
// event streams nor uploads, and the compose file parses and gives the container engine the task
// folders at the workers' paths. The workers' environment is loaded by the real config loader and
// executor options, and every FOLIO_* variable the compose file sets or docs/deploy.md names must be
// one the code reads, so neither drifts from the service.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { quotaEnvName, quotaNames } from '../quotas/limits';
import { containerOptionsFromEnv } from '../sandbox/select-executor';
import { ENV_FOR_FLAG, loadServiceConfig } from '../tenancy/config';

const root = join(import.meta.dirname, '..', '..', '..');
const deploy = (name: string) => join(root, 'deploy', name);

/** The context compose builds is the repository root; BuildKit reads `<Dockerfile>.dockerignore` beside the Dockerfile. */
function ignoredPatterns(): string[] {
  const file = deploy('Dockerfile.dockerignore');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

describe('deploy/Dockerfile', () => {
  it('keeps the data folder, local secrets, git and host-built modules out of the build context', () => {
    const patterns = ignoredPatterns();
    // `COPY . .` would otherwise bake workspace/keys.json (plain API keys) and folio.db into a layer,
    // and the host's node_modules (native addons built for another system) over the image's own.
    for (const required of ['workspace', '**/node_modules', '.git', 'out', '.env', '**/.env*', '**/keys.json']) {
      expect(patterns, `deploy/Dockerfile.dockerignore lacks ${required}`).toContain(required);
    }
    expect(patterns.some((p) => p.startsWith('!workspace')), 'nothing of workspace/ may be re-included').toBe(false);
  });

  it('runs as an unprivileged user and bakes in no secret', () => {
    const dockerfile = readFileSync(deploy('Dockerfile'), 'utf8');
    const users = [...dockerfile.matchAll(/^USER\s+(\S+)/gm)].map((m) => m[1]);
    expect(users.at(-1)).toBeDefined();
    expect(['root', '0']).not.toContain(users.at(-1));
    expect(dockerfile).not.toMatch(/^(ENV|ARG)\s+\S*(KEY|SECRET|PASSWORD|TOKEN)/im);
  });
});

describe('deploy/nginx.conf', () => {
  it('passes event streams and uploads through unbuffered', () => {
    const conf = readFileSync(deploy('nginx.conf'), 'utf8');
    expect(conf).toMatch(/^\s*proxy_buffering off;/m);
    expect(conf).toMatch(/^\s*proxy_request_buffering off;/m);
  });
});

interface ComposeService {
  environment?: Record<string, string>;
  volumes?: string[];
  privileged?: boolean;
}

describe('deploy/compose.yaml', () => {
  const compose = parse(readFileSync(deploy('compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
  const workers = Object.entries(compose.services).filter(([, s]) => s.environment?.FOLIO_MULTI_TENANT === 'true');

  it('runs the workers\' programs in containers on the engine service, which sees the storage root where they do', () => {
    expect(workers.map(([name]) => name)).toEqual(['folio-1', 'folio-2']);
    const engine = compose.services.engine;
    expect(engine).toBeDefined();
    const socketVolume = (s: ComposeService) => s.volumes?.find((v) => v.endsWith(':/run/engine'));
    for (const [, worker] of workers) {
      const env = worker.environment ?? {};
      expect(env.FOLIO_EXECUTOR).toBe('container');
      expect(env.CONTAINER_HOST).toBe('unix:///run/engine/podman.sock');
      const storage = worker.volumes?.find((v) => v.endsWith(`:${env.FOLIO_STORAGE_ROOT}`));
      expect(storage, 'the storage root is a volume').toBeDefined();
      // The engine resolves a task folder's path on its own file system: the same volume at the same path.
      expect(engine?.volumes).toContain(storage);
      expect(socketVolume(worker)).toBe(socketVolume(engine ?? {}));
    }
    // Only the workers and the engine reach the socket.
    const reaching = Object.entries(compose.services).filter(([, s]) => socketVolume(s) !== undefined).map(([name]) => name);
    expect(reaching.sort()).toEqual(['engine', 'folio-1', 'folio-2']);
  });
});

/** The compose file with its `${VAR:?…}` and `${VAR:-default}` filled as `docker compose` would fill them. */
function interpolated(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_, name: string, op: string | undefined, rest: string | undefined) => {
    if (vars[name] !== undefined) return vars[name];
    if (op === '-') return rest ?? '';
    throw new Error(`compose.yaml needs ${name}: ${rest ?? ''}`);
  });
}

/** Production sources (not tests) of the service and its command line. */
function productionSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return productionSources(path);
    return /\.(ts|mjs|js)$/.test(entry.name) && !/\.test\.|test-support|\.fixture\./.test(entry.name) ? [readFileSync(path, 'utf8')] : [];
  });
}

/**
 * Every FOLIO_* variable the code reads: a property read or a string literal naming it (a comment
 * does not count), the config loader's flag variables and the quota variables it builds from names.
 */
function variablesRead(): Set<string> {
  const names = new Set<string>([...Object.values(ENV_FOR_FLAG), ...quotaNames.map(quotaEnvName)]);
  for (const text of [...productionSources(join(root, 'src', 'main')), ...productionSources(join(root, 'bin'))]) {
    for (const m of text.matchAll(/(?:\.|\[['"`]|['"`])(FOLIO_[A-Z0-9_]+)/g)) names.add(m[1]);
  }
  return names;
}

describe('deploy/compose.yaml and docs/deploy.md against what the service reads', () => {
  const secrets = {
    POSTGRES_PASSWORD: 'pgpass0123456789',
    FOLIO_PLATFORM_KEY: 'p'.repeat(48),
    FOLIO_JWT_SECRET: 's'.repeat(48),
    FOLIO_KEY_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
  };
  const composeText = readFileSync(deploy('compose.yaml'), 'utf8');
  const compose = parse(interpolated(composeText, secrets), { merge: true }) as { services: Record<string, ComposeService> };
  const workers = Object.entries(compose.services).filter(([, s]) => s.environment?.FOLIO_MULTI_TENANT === 'true');
  const docs = readFileSync(join(root, 'docs', 'deploy.md'), 'utf8');
  const read = variablesRead();

  it('starts each worker as the team service the compose file describes', () => {
    expect(workers).toHaveLength(2);
    for (const [name, worker] of workers) {
      const env = worker.environment!;
      const config = loadServiceConfig([], env);
      expect(config).toMatchObject({ multiTenant: true, host: '0.0.0.0', port: 4319, storageRoot: '/srv/folio', workerId: name, publicHosts: ['localhost'], shutdownGraceMs: 30_000 });
      expect(config.databaseUrl).toBe(`postgres://folio:${secrets.POSTGRES_PASSWORD}@postgres:5432/folio`);
      expect(config.keyring).not.toBeNull();
      expect(config.quotas.requests_per_minute).toBe(600);
      // The database the URL names is the postgres service's, with its user and password.
      expect(compose.services.postgres.environment).toMatchObject({ POSTGRES_DB: 'folio', POSTGRES_USER: 'folio', POSTGRES_PASSWORD: secrets.POSTGRES_PASSWORD });
      expect(containerOptionsFromEnv(env)).toMatchObject({ runtime: 'podman', image: 'folio-tools:bookworm', ulimits: ['nofile=1024:1024', 'nproc=1024:1024'] });
      // The healthcheck asks the port the worker listens on.
      expect(JSON.stringify((worker as { healthcheck?: unknown }).healthcheck)).toContain(`127.0.0.1:${config.port}/readyz`);
    }
  });

  it('sets only variables the service reads (CONTAINER_HOST is podman\'s own)', () => {
    for (const [, worker] of workers) {
      const unread = Object.keys(worker.environment!).filter((name) => !read.has(name) && name !== 'CONTAINER_HOST');
      expect(unread).toEqual([]);
    }
  });

  it('documents only variables the service reads, and every variable of `folio serve`', () => {
    const mentioned = new Set([...docs.matchAll(/\bFOLIO_[A-Z0-9_]*[A-Z0-9]\b/g)].map((m) => m[0]));
    expect([...mentioned].filter((name) => !read.has(name) && name !== 'FOLIO_QUOTA')).toEqual([]);
    expect(Object.values(ENV_FOR_FLAG).filter((name) => !mentioned.has(name))).toEqual([]);
  });

  it('has YAML examples that parse', () => {
    const blocks = [...docs.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].map((m) => m[1]);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      expect(() => {
        parse(block);
      }).not.toThrow();
    }
  });

  it("tells the operator to export every variable the compose file requires", () => {
    const required = [...new Set([...composeText.matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]))];
    expect(required.sort()).toEqual(Object.keys(secrets).sort());
    for (const name of required) expect(docs, `docs/deploy.md exports ${name} before \`docker compose up\``).toMatch(new RegExp(`^export ${name}=`, 'm'));
  });
});
