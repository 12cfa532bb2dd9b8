// POST /v1/projects/:project_id/files: multipart files handed to the core's library, like
// task uploads; GET on the same path stays the listLibraryFiles call.
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestServer, errorOf, startTestServer } from './http-test-kit.test-support';
import { scratchDir, UPLOAD_DIR_PREFIX } from '../../workspace/scratch';

let srv: TestServer;

async function libraryDirs(): Promise<string[]> {
  const names = await readdir(scratchDir(join(tmpdir(), 'folio-fake'))).catch(() => []);
  return names.filter((name) => name.startsWith(UPLOAD_DIR_PREFIX));
}

function form(files: { name: string; bytes: Uint8Array }[]): FormData {
  const data = new FormData();
  for (const file of files) data.append('file', new Blob([file.bytes]), file.name);
  return data;
}

let dirsBefore: string[] = [];
beforeEach(async () => {
  srv = await startTestServer({ maxUploadBytes: 64 * 1024 });
  dirsBefore = await libraryDirs();
});
afterEach(async () => {
  await srv.close();
  expect(await libraryDirs()).toEqual(dirsBefore);
});

describe('library upload', () => {
  it("hands files to a project's library and to the personal library with exact names and bytes", async () => {
    const paper = new Uint8Array(30_000).map((_, i) => i % 253);
    const res = await srv.api('/v1/projects/lab/files', { method: 'POST', body: form([{ name: '综述 2025.pdf', bytes: paper }]) });
    const body = (await res.json()) as { files: { library: string; path: string; task_path: string; size: number; status: string }[] };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.files).toMatchObject([{ library: 'lab', path: '综述 2025.pdf', task_path: 'library/project/综述 2025.pdf', size: 30_000, status: 'pending' }]);
    const personal = await srv.api('/v1/projects/personal/files', { method: 'POST', body: form([{ name: 'cv.md', bytes: new TextEncoder().encode('# CV\n') }]) });
    expect(personal.status).toBe(201);
    expect(srv.core.libraryUploads.map((u) => [u.library, u.name, u.bytes.length])).toEqual([
      ['lab', '综述 2025.pdf', 30_000],
      ['personal', 'cv.md', 5],
    ]);
    expect(Buffer.compare(srv.core.libraryUploads[0].bytes, Buffer.from(paper))).toBe(0);
    // GET on the same path is still the contract call.
    const listed = await srv.api('/v1/projects/lab/files');
    expect(listed.status).toBe(200);
    expect(await listed.json()).toMatchObject({ files: [], progress: { total_files: 0 } });
  });

  it('refuses an unknown project, a malformed id, a body that is not multipart, an empty upload and query parameters', async () => {
    const unknown = await srv.api('/v1/projects/nope/files', { method: 'POST', body: form([{ name: 'a.txt', bytes: new Uint8Array([97]) }]) });
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).code).toBe('not_found');
    const malformed = await srv.api('/v1/projects/no%20pe/files', { method: 'POST', body: form([{ name: 'a.txt', bytes: new Uint8Array([97]) }]) });
    expect(malformed.status).toBe(400);
    const json = await srv.api('/v1/projects/lab/files', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(415);
    const empty = await srv.api('/v1/projects/lab/files', { method: 'POST', body: new FormData() });
    expect(empty.status).toBe(400);
    const query = await srv.api('/v1/projects/lab/files?x=1', { method: 'POST', body: form([{ name: 'a.txt', bytes: new Uint8Array([97]) }]) });
    expect(query.status).toBe(400);
    expect(srv.core.libraryUploads).toEqual([]);
  });

  it('refuses a file over the size limit', async () => {
    const res = await srv.api('/v1/projects/lab/files', { method: 'POST', body: form([{ name: 'big.pdf', bytes: new Uint8Array(65 * 1024) }]) });
    expect(res.status).toBe(413);
    expect(srv.core.libraryUploads).toEqual([]);
  });
});
