import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_TOKEN, type TestServer, errorOf, startTestServer } from './http-test-kit.test-support';
import { sanitizeUploadName } from './upload';

let srv: TestServer;
let taskId = '';

async function uploadDirs(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((name) => name.startsWith('folio-upload-'));
}

function form(files: { name: string; bytes: Uint8Array }[]): FormData {
  const data = new FormData();
  for (const file of files) data.append('file', new Blob([file.bytes]), file.name);
  return data;
}

let dirsBefore: string[] = [];
beforeEach(async () => {
  srv = await startTestServer({ maxUploadBytes: 64 * 1024 });
  taskId = (await srv.core.handlers.createTask({ mode: 'general' })).id;
  dirsBefore = await uploadDirs();
});
afterEach(async () => {
  await srv.close();
  // Every path, success or failure, must remove its temp dir.
  expect(await uploadDirs()).toEqual(dirsBefore);
});

describe('multipart upload', () => {
  it('hands two files, one with a Chinese name, to the core with exact names and bytes', async () => {
    const pdf = new Uint8Array(40_000).map((_, i) => i % 251);
    const notes = new TextEncoder().encode('# 笔记\n');
    const res = await srv.api(`/v1/tasks/${taskId}/files`, {
      method: 'POST',
      body: form([
        { name: '研究报告 2024.pdf', bytes: pdf },
        { name: 'notes.md', bytes: notes },
      ]),
    });
    const body = (await res.json()) as { files: { path: string; size: number }[] };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.files.map((f) => [f.path, f.size])).toEqual([
      ['source/研究报告 2024.pdf', 40_000],
      ['source/notes.md', notes.length],
    ]);
    expect(srv.core.uploads).toHaveLength(1);
    const [upload] = srv.core.uploads;
    expect(upload.taskId).toBe(taskId);
    expect(upload.files.map((f) => f.name)).toEqual(['研究报告 2024.pdf', 'notes.md']);
    expect(Buffer.compare(upload.files[0].bytes, Buffer.from(pdf))).toBe(0);
    expect(upload.files[1].bytes.toString('utf8')).toBe('# 笔记\n');
    expect(existsSync(dirname(upload.files[0].path))).toBe(false);
  });

  it('reduces file names to their base name', async () => {
    const res = await srv.api(`/v1/tasks/${taskId}/files`, { method: 'POST', body: form([{ name: '../../etc/evil.txt', bytes: new Uint8Array([1]) }]) });
    expect(res.status).toBe(201);
    expect(srv.core.uploads[0].files[0].name).toBe('evil.txt');
  });

  it('answers 413 for a file over the limit and hands nothing to the core', async () => {
    const res = await srv.api(`/v1/tasks/${taskId}/files`, {
      method: 'POST',
      body: form([
        { name: 'ok.txt', bytes: new Uint8Array(10) },
        { name: 'big.bin', bytes: new Uint8Array(64 * 1024 + 1) },
      ]),
    });
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toMatchObject({ code: 'payload_too_large' });
    expect(srv.core.uploads).toHaveLength(0);
    expect((await srv.api('/v1/tasks')).status).toBe(200);
  });

  it('validates the task id first and reports unknown tasks', async () => {
    const bad = await srv.api(`/v1/tasks/${encodeURIComponent('../x')}/files`, { method: 'POST', body: form([{ name: 'a.txt', bytes: new Uint8Array(1) }]) });
    expect(bad.status).toBe(400);
    const unknown = await srv.api('/v1/tasks/task_missing/files', { method: 'POST', body: form([{ name: 'a.txt', bytes: new Uint8Array(1) }]) });
    expect(unknown.status).toBe(404);
  });

  it('refuses non-multipart bodies, empty uploads, nameless files and missing tokens', async () => {
    expect((await srv.api(`/v1/tasks/${taskId}/files`, { method: 'POST', json: { paths: ['/etc/passwd'] } })).status).toBe(415);
    const empty = new FormData();
    empty.append('note', 'no files here');
    expect((await srv.api(`/v1/tasks/${taskId}/files`, { method: 'POST', body: empty })).status).toBe(400);
    expect((await srv.api(`/v1/tasks/${taskId}/files`, { method: 'POST', body: form([{ name: '..', bytes: new Uint8Array(1) }]) })).status).toBe(400);
    const noToken = await fetch(`${srv.url}/v1/tasks/${taskId}/files`, { method: 'POST', body: form([{ name: 'a.txt', bytes: new Uint8Array(1) }]) });
    expect(noToken.status).toBe(401);
    expect(srv.core.uploads).toHaveLength(0);
  });

  it('refuses a truncated multipart body', async () => {
    const boundary = 'folioboundary';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello`;
    const res = await srv.raw(`/v1/tasks/${taskId}/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(res.status).toBe(400);
    expect(srv.core.uploads).toHaveLength(0);
  });
});

describe('sanitizeUploadName', () => {
  it('keeps the last component without control characters', () => {
    expect(sanitizeUploadName('C:\\Users\\me\\报告.docx')).toBe('报告.docx');
    expect(sanitizeUploadName('a/b/c.txt')).toBe('c.txt');
    expect(sanitizeUploadName('bad\u0000name\n.txt')).toBe('badname.txt');
    expect(sanitizeUploadName('..')).toBe('');
    expect(sanitizeUploadName('dir/')).toBe('');
  });
});
