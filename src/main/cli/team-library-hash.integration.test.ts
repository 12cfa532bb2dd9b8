// A team library upload reads each received file once to hash it: the hash that checks the storage
// quota (a copy of stored bytes costs nothing) is the one the library records. Counted on the
// reads of the upload's temporary files (`UPLOAD_DIR_PREFIX`), the only reads a hash makes of them.
import type * as fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pgSkipReason } from '../../../testing/postgres/test-database';
import { UPLOAD_DIR_PREFIX } from '../workspace/scratch';
import { startTeamServer, type TeamServer } from './team-server.test-support';

const reads = vi.hoisted(() => [] as string[]);
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  const createReadStream = ((path: fs.PathLike, options?: unknown) => {
    reads.push(String(path));
    return real.createReadStream(path, options as Parameters<typeof real.createReadStream>[1]);
  }) as typeof real.createReadStream;
  return { ...real, createReadStream, default: { ...real, createReadStream } };
});

const skip = pgSkipReason();
if (skip !== null) console.warn(`team library hash test skipped: ${skip}`);

describe.skipIf(skip !== null)('team service: a library upload', () => {
  let s: TeamServer;
  beforeAll(async () => {
    s = await startTeamServer(['acme']);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('hashes each received file once', async () => {
    const form = new FormData();
    form.append('file', new Blob(['first file\n'], { type: 'text/plain' }), 'one.txt');
    form.append('file', new Blob(['second file\n'], { type: 'text/plain' }), 'two.txt');
    const res = await s.as('acme', 'alice', '/v1/projects/personal/files', { method: 'POST', body: form });
    expect(res.status, await res.text()).toBe(201);
    const uploadReads = reads.filter((path) => path.includes(UPLOAD_DIR_PREFIX));
    expect(uploadReads).toHaveLength(2);
    expect(new Set(uploadReads).size).toBe(2);
  });
});
