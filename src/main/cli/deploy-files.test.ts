// The deploy files are written without Docker at hand, so what must hold is checked here by reading
// them: the build context keeps out the developer's data folder (keys.json, the database) and the
// host's node_modules, the worker runs as an unprivileged user, the proxy buffers neither
// event streams nor uploads, and the compose file parses and gives the container engine the task
// folders at the workers' paths.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

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
