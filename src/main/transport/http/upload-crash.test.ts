// Malformed multipart requests once threw an unhandled 'error' event (the whole
// server exited, live runs included) or answered 500, and left /tmp/folio-upload-* folders behind.
// The server runs in a child process with its own TMPDIR, and requests are written byte for byte
// with net.connect, so nothing normalizes them and a crash is seen as the child exiting.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../../workspace/scratch';

const TOKEN = 'upload-crash-token-0123456789';
const fixture = join(import.meta.dirname, 'upload-server.fixture.ts');

let child: ChildProcessWithoutNullStreams;
let childTmp = '';
let port = 0;
let taskId = '';
let stderr = '';

beforeAll(async () => {
  childTmp = mkdtempSync(join(tmpdir(), 'folio-upload-crash-'));
  child = spawn(process.execPath, ['--import', 'tsx', fixture, TOKEN], { env: { ...process.env, TMPDIR: childTmp } });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.once('exit', (code) => reject(new Error(`fixture exited (${code}): ${stderr}`)));
  });
  ({ port, taskId } = JSON.parse(line) as { port: number; taskId: string });
});

afterAll(() => {
  child.stdin.end();
  child.kill();
  rmSync(childTmp, { recursive: true, force: true });
});

interface RawAnswer {
  status: number;
  body: string;
}

/** Writes one request verbatim (no half-close: the server would drop its answer) and reads the answer. */
function send(head: string, body: Buffer | string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer within 5 s'));
    }, 5000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
    socket.write(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8')]));
  });
}

function uploadHead(contentType: string, length: number, path = `/v1/tasks/${taskId}/files`): string {
  return [
    `POST ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    `Authorization: Bearer ${TOKEN}`,
    `Content-Type: ${contentType}`,
    `Content-Length: ${length}`,
    'Connection: close',
    '',
    '',
  ].join('\r\n');
}

function upload(body: string | Buffer, contentType = 'multipart/form-data; boundary=XB', path?: string): Promise<RawAnswer> {
  return send(uploadHead(contentType, Buffer.byteLength(body), path), body);
}

/** Every route that takes multipart: each goes through the same parser. */
function multipartRoutes(): string[] {
  return [`/v1/tasks/${taskId}/files`, '/v1/templates', '/v1/projects/personal/files'];
}

function part(headers: string, content: string): string {
  return `--XB\r\n${headers}\r\n\r\n${content}\r\n`;
}

async function expectAliveAndClean(): Promise<void> {
  expect(child.exitCode, stderr).toBeNull();
  const ok = await send(`GET /v1/tasks HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`, '');
  expect(ok.status).toBe(200);
  // The temp folder is removed before the answer is sent.
  expect(readdirSync(scratchDir(join(childTmp, 'folio-fake'))).filter((n) => n.startsWith('folio-upload-'))).toEqual([]);
}

function errorCode(answer: RawAnswer): string {
  return (JSON.parse(answer.body) as { error: { code: string } }).error.code;
}

describe('malformed multipart never crashes the server or answers 5xx', () => {
  it('a part whose filename cleans to empty, with the body cut before the closing boundary', async () => {
    const answer = await upload(`--XB\r\nContent-Disposition: form-data; name="file"; filename="/"\r\n\r\nhello`);
    expect(answer.status).toBe(400);
    expect(errorCode(answer)).toBe('invalid_input');
    await expectAliveAndClean();
  });

  it('a named file cut before the closing boundary', async () => {
    const answer = await upload(`--XB\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\n${'x'.repeat(20_000)}`);
    expect(answer.status).toBe(400);
    await expectAliveAndClean();
  });

  it('a NUL byte in a part header', async () => {
    for (const headers of ['Content-Disposition: form-data; name="file"; filename="a\0.txt"', 'Content-Disposition: form-data; name="fi\0le"; filename="a.txt"', 'X-\0: 1\r\nContent-Disposition: form-data; name="file"; filename="a.txt"']) {
      const answer = await upload(`${part(headers, 'hello')}--XB--\r\n`);
      expect(answer.status, headers).toBe(400);
      expect(errorCode(answer)).toBe('invalid_input');
    }
    await expectAliveAndClean();
  });

  it('a missing or empty boundary, and a body that never has one', async () => {
    for (const type of ['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary="unterminated']) {
      const answer = await upload(part('Content-Disposition: form-data; name="file"; filename="a.txt"', 'x'), type);
      expect(answer.status, type).toBe(400);
    }
    const noBoundaryInBody = await upload('just some bytes with no boundary at all');
    expect(noBoundaryInBody.status).toBe(400);
    await expectAliveAndClean();
  });

  it('an oversized part header', async () => {
    const answer = await upload(`${part(`Content-Disposition: form-data; name="file"; filename="a.txt"\r\nX-Pad: ${'p'.repeat(20_000)}`, 'x')}--XB--\r\n`);
    expect(answer.status).toBe(400);
    await expectAliveAndClean();
  });

  it('a file over the limit followed by a malformed part header (found by the fuzz test: it hung)', async () => {
    const big = part('Content-Disposition: form-data; name="file"; filename="big.bin"', 'z'.repeat(70 * 1024));
    const answer = await upload(`${big}${part(`Content-Disposition: form-data; name="file"; filename="b"\r\nX-Pad: ${'p'.repeat(17_000)}`, 'x')}--XB--\r\n`);
    expect(answer.status).toBe(413);
    await expectAliveAndClean();
  });

  it('too many parts, and too many files', async () => {
    const fields = Array.from({ length: 200 }, (_, i) => part(`Content-Disposition: form-data; name="f${i}"`, 'v')).join('');
    const tooManyParts = await upload(`${fields}--XB--\r\n`);
    expect(tooManyParts.status).toBe(413);
    expect(errorCode(tooManyParts)).toBe('payload_too_large');
    const files = Array.from({ length: 101 }, (_, i) => part(`Content-Disposition: form-data; name="file"; filename="${i}.txt"`, 'v')).join('');
    const tooManyFiles = await upload(`${files}--XB--\r\n`);
    expect(tooManyFiles.status).toBe(413);
    await expectAliveAndClean();
  });

  it('a client that goes away in the middle of a file', async () => {
    const body = `--XB\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n${'y'.repeat(30_000)}`;
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(uploadHead('multipart/form-data; boundary=XB', 60_000) + body);
        // Long enough for the server to have created its temp folder and started the file.
        setTimeout(() => socket.destroy(), 150);
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve());
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expectAliveAndClean();
  });

  it('still accepts a well-formed upload afterwards', async () => {
    const answer = await upload(`${part('Content-Disposition: form-data; name="file"; filename="ok.txt"\r\nContent-Type: text/plain', 'fine')}--XB--\r\n`);
    expect(answer.status, answer.body).toBe(201);
    await expectAliveAndClean();
  });
});

describe('a part that names no file', () => {
  // busboy treats an application/octet-stream part without filename as a file whose filename is
  // undefined; reading it as a string threw inside a parser event and the process exited.
  const variants = [
    'Content-Disposition: form-data; name="file"\r\nContent-Type: application/octet-stream',
    'Content-Disposition: form-data\r\nContent-Type: application/octet-stream',
    'Content-Type: application/octet-stream',
    'Content-Disposition: form-data; name="file"; filename\r\nContent-Type: application/octet-stream',
    'Content-Disposition: form-data; name="file"; filename=""\r\nContent-Type: application/octet-stream',
    'Content-Disposition: attachment\r\nContent-Type: application/octet-stream',
  ];
  for (const route of ['tasks', 'templates', 'projects']) {
    it(`answers 400 on ${route} and the server lives`, async () => {
      const path = multipartRoutes().find((p) => p.includes(route)) ?? '';
      for (const headers of variants) {
        const answer = await upload(`${part(headers, 'data')}--XB--\r\n`, undefined, path);
        expect(answer.status, `${path} ${headers}`).toBe(400);
        expect(errorCode(answer)).toBe('invalid_input');
        expect(child.exitCode, stderr).toBeNull();
      }
      await expectAliveAndClean();
    });
  }
});

describe('bounded fuzz of every multipart route', () => {
  it('300 malformed requests per route: no exit, no 5xx, no leftover folder', async () => {
    let seed = 0x5eed;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const pick = <T,>(xs: readonly T[]): T => xs[rand(xs.length)];
    const dispositions = [
      'Content-Disposition: form-data; name="file"; filename="a.txt"',
      'Content-Disposition: form-data; name="file"',
      'Content-Disposition: form-data; filename="../../etc/passwd"',
      "Content-Disposition: form-data; name=\"file\"; filename*=UTF-8''%E4%B8%AD%E6%96%87.pdf",
      "Content-Disposition: form-data; name=\"file\"; filename*=bogus''%ZZ",
      'Content-Disposition: form-data; name="file"; filename="\u4e2d\u6587.pdf"',
      'Content-Disposition: form-data; name="file"; filename="%00"',
      'Content-Disposition: form-data; name="file"; filename="a\\\\b\\\\."',
      'Content-Disposition: form-data; name=; filename=',
      'Content-Disposition: ;;;;',
      'Content-Disposition: form-data; name="file"; filename="' + 'n'.repeat(600) + '"',
      '',
    ];
    const types = ['', 'Content-Type: application/octet-stream', 'Content-Type: text/plain; charset=gbk', 'Content-Type: ', 'Content-Type: multipart/mixed; boundary=YY', 'Content-Transfer-Encoding: base64\r\nContent-Type: application/octet-stream'];
    const contentTypes = ['multipart/form-data; boundary=XB', 'multipart/form-data; boundary="XB"', 'multipart/form-data; boundary=XB; charset=utf-16', 'multipart/form-data;boundary=XB', 'multipart/form-data; boundary=ZZ', 'multipart/form-data'];
    const bodies = ['', 'x', '\0\0\0', '\u00ff\u00fe', 'y'.repeat(3000)];
    for (const route of multipartRoutes()) {
      for (let i = 0; i < 300; i++) {
        const parts = Array.from({ length: 1 + rand(3) }, () => part([pick(dispositions), pick(types)].filter(Boolean).join('\r\n'), pick(bodies)));
        const ending = pick(['--XB--\r\n', '--XB--', '', '--XB\r\n', '--X']);
        const body = Buffer.from(parts.join('') + ending, rand(4) === 0 ? 'latin1' : 'utf8');
        const answer = await upload(body, pick(contentTypes), route);
        expect(child.exitCode, `${route} #${i}: ${stderr}`).toBeNull();
        expect(answer.status, `${route} #${i}: ${answer.body}`).toBeGreaterThanOrEqual(200);
        expect(answer.status, `${route} #${i}: ${answer.body}`).toBeLessThan(500);
      }
    }
    await expectAliveAndClean();
  }, 120_000);
});
