// Bounded fuzzing of web mode: a few thousand generated requests over every route of the contract
// (wrong methods, odd paths and params, JSON bodies of the wrong types, huge strings, NULs, unicode,
// bad headers, broken multipart), sent byte for byte to a real server around a real core (temp data
// folder, the fake OpenAI server). Any 5xx, any request left unanswered, or an uncaught error
// (vitest fails the run on one) is a failure. The seed is fixed, so a failure reproduces.
// Exploring further: FUZZ_SEED=n FUZZ_RUNS=n (other inputs), FUZZ_VERBOSE=1 (status counts),
// FUZZ_DUMP=file (the failing request, body in base64).
import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../../../../testing/fake-openai/server';
import { contract, type HttpMethod, type MethodName } from '../../../shared/contract/methods';
import { SOFFICE_ENV } from '../../renderers/soffice';
import { scratchDir, UPLOAD_DIR_PREFIX } from '../../workspace/scratch';
import { collect, makeCore, makeDataDir } from '../../service/core-test-kit';
import type { Core } from '../../service/create-core';
import { taskDir } from '../../workspace/layout';
import { EVENTS_PATH, UPLOAD_PATH, contractRoutes } from './routes';
import { type RunningHttpServer, startHttpServer } from './index';

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_9);
// About 25 s on a busy 2-core machine.
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
/** A request not answered (status line received) within this time counts as a hang. */
const ANSWER_TIMEOUT_MS = 10_000;
const TOKEN = 'fuzz-token-0123456789abcdef';

let fake: FakeOpenAI;
let core: Core;
let server: RunningHttpServer;
let dataDir = '';
let privateTmp = '';
let previousEnv: Record<string, string | undefined> = {};
const internalErrors: unknown[] = [];
/** Ids and paths that exist, so generated requests also get past validation into the core. */
const known = {
  tasks: [] as string[],
  runs: [] as string[],
  paths: ['source/notes.md', 'source/notes.md.md', 'artifacts/deck.pptx', 'artifacts/deck.pptx.preview.json'],
};

beforeAll(async () => {
  previousEnv = { TMPDIR: process.env.TMPDIR, [SOFFICE_ENV]: process.env[SOFFICE_ENV] };
  privateTmp = mkdtempSync(join(tmpdir(), 'folio-fuzz-tmp-'));
  process.env.TMPDIR = privateTmp;
  // A LibreOffice that converts nothing, at once: exports fail as data without a real conversion.
  const soffice = join(privateTmp, 'soffice');
  writeFileSync(soffice, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  process.env[SOFFICE_ENV] = soffice;
  fake = await startFakeOpenAI();
  // Plenty of plain replies: generated messages start runs, and the probe makes a few calls.
  fake.script(Array.from({ length: 2000 }, () => ({ text: 'ok', usage: { prompt: 3, completion: 1 } })));
  dataDir = makeDataDir(fake.url);
  core = await makeCore(dataDir);
  server = await startHttpServer(core, { token: TOKEN, maxUploadBytes: 256 * 1024, onInternalError: (_where, error) => internalErrors.push(error) });

  for (const mode of ['general', 'coding'] as const) known.tasks.push(await seedTask(mode));
  const [first] = known.tasks;
  const { run_id } = await core.handlers.sendMessage({ task_id: first, content: 'hello' });
  await collect(core, first, run_id);
  known.runs.push(run_id);
});

afterAll(async () => {
  await server?.close();
  await core?.close();
  await fake?.close();
  for (const [name, value] of Object.entries(previousEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(privateTmp, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

/** A task with a source and artifacts whose bytes are garbage: previews and reads must fail as data. */
async function seedTask(mode: 'general' | 'coding'): Promise<string> {
  const task = await core.handlers.createTask({ mode, title: `fuzz ${mode}` });
  const upload = join(privateTmp, `notes-${task.id}`);
  writeFileSync(upload, '# Notes\n\nSome text.\n');
  await core.addUploadedFiles(task.id, [{ name: 'notes.md', path: upload }]);
  rmSync(upload);
  const artifacts = join(taskDir(dataDir, task.id), 'artifacts');
  mkdirSync(artifacts, { recursive: true });
  writeFileSync(join(artifacts, 'deck.pptx'), 'not a zip');
  writeFileSync(join(artifacts, 'deck.pptx.preview.json'), '{"broken":');
  return task.id;
}

/** Generated DELETEs remove tasks; replace them so later requests still reach existing ones. */
async function replaceDeletedTasks(): Promise<void> {
  for (let i = 0; i < known.tasks.length; i++) {
    if (!(await core.ctx.store.tasks.get(known.tasks[i]))) known.tasks[i] = await seedTask(i === 0 ? 'general' : 'coding');
  }
}


interface RouteShape {
  method: HttpMethod;
  path: string;
  /** The contract method behind a plain call route (its input fields name the JSON/query keys). */
  name: MethodName | null;
}

const uploadShape: RouteShape = { method: 'POST', path: UPLOAD_PATH, name: null };
const routeShapes: RouteShape[] = [
  ...contractRoutes().map((r) => ({ method: r.method, path: r.path, name: r.target.kind === 'call' ? r.target.method : null })),
  // Uploads have the most hand-written parsing, so they get a larger share.
  uploadShape,
  uploadShape,
  uploadShape,
  { method: 'GET', path: EVENTS_PATH, name: null },
];

function inputFields(name: MethodName | null): string[] {
  if (name === null) return ['after', 'format'];
  const input = contract[name].input as { shape?: Record<string, unknown> };
  return Object.keys(input.shape ?? {});
}

/** `arb` one time in `inverse`, else undefined. */
function sometimes<T>(arb: fc.Arbitrary<T>, inverse: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: inverse - 1 }, { arbitrary: arb, weight: 1 });
}

const HUGE = 'x'.repeat(300_000);
const OVER_BODY_LIMIT = 'y'.repeat(1_100_000);

const nastyString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '\0', 'a\0b', '\u202eexe.txt', '../../etc/passwd', '/etc/passwd', '%00', '中文 报告', '\ud800', '__proto__', 'constructor'),
  fc.constantFrom('ppt', 'proposal', 'coding', 'general', 'ask', 'auto', 'auto-edit', 'allow', 'deny', 'zh-CN', 'en', 'fake.main', 'FAKE_API_KEY', 'active'),
  fc.constant(HUGE),
);

/** Values of every JSON type, biased towards the edges the contract must reject. */
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: nastyString, weight: 4 },
  { arbitrary: fc.nat().map((i) => [...known.tasks, 't_missing'][i % (known.tasks.length + 1)]), weight: 1 },
  { arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(-1, 0, 1e308, -0, 2 ** 53 + 1)), weight: 2 },
  { arbitrary: fc.constantFrom(true, false, null), weight: 1 },
  { arbitrary: fc.array(fc.oneof(nastyString, fc.integer()), { maxLength: 5 }), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
);

/** `pool` is read when a value is drawn: the known ids exist only once the fixtures are made. */
function idSegment(pool: () => string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.nat().map((i) => pool()[i % pool().length]), weight: 14 },
    { arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }).map(encodeURIComponent), weight: 2 },
    { arbitrary: fc.constantFrom('..', '.', '%2e%2e', '%00', '%', '%zz', '%2F', 'a%2Fb', '%E4%B8', 'x'.repeat(5000)), weight: 1 },
  );
}

const restPath = fc.oneof(
  { arbitrary: fc.nat().map((i) => known.paths[i % known.paths.length].split('/').map(encodeURIComponent).join('/')), weight: 4 },
  { arbitrary: fc.array(idSegment(() => ['source', 'artifacts', 'work', '..', 'notes.md']), { minLength: 1, maxLength: 4 }).map((s) => s.join('/')), weight: 4 },
  { arbitrary: fc.constantFrom('..%2f..%2ffolio.db', '%2fetc%2fpasswd', 'source/%00', 'artifacts/a.pptx', 'artifacts/../../keys.json', 'source/', 'a//b'), weight: 2 },
);

function fillPath(pattern: string): fc.Arbitrary<string> {
  const parts = pattern.split('/').slice(1);
  return fc
    .tuple(
      ...parts.map((part): fc.Arbitrary<string> => {
        if (part === ':task_id') return idSegment(() => known.tasks);
        if (part === ':run_id') return idSegment(() => known.runs);
        if (part.startsWith(':')) return idSegment(() => ['call_1', 'call 1']);
        if (part.startsWith('*')) return restPath;
        return fc.oneof({ arbitrary: fc.constant(part), weight: 19 }, { arbitrary: fc.constantFrom(part.toUpperCase(), `${part}%20`, ''), weight: 1 });
      }),
    )
    .map((segments) => `/${segments.join('/')}`);
}

const anyMethod = fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS', 'TRACE', 'FOO', 'get');

/** Values a well-behaved client might send for a field, so requests also get past validation. */
function plausible(field: string): fc.Arbitrary<unknown> {
  const strings: Record<string, fc.Arbitrary<unknown>> = {
    mode: fc.constantFrom('ppt', 'proposal', 'coding', 'general'),
    status: fc.constantFrom('active', 'completed', 'abandoned'),
    approval_mode: fc.constantFrom('ask', 'auto-edit', 'auto'),
    decision: fc.constantFrom('allow_once', 'allow_task', 'deny'),
    language: fc.constantFrom('system', 'en', 'zh-CN'),
    model: fc.constantFrom('fake.main', null, 'nope.main'),
    default_model: fc.constantFrom('fake.main', null),
    profile_id: fc.constantFrom('fake.main', 'missing.main'),
    needle: fc.boolean(),
    env: fc.constantFrom('FAKE_API_KEY', 'OTHER_KEY'),
    workspace_path: fc.constantFrom('/', '/etc', 'relative/dir', null, '/nonexistent/folder'),
    before_seq: fc.integer({ min: -2, max: 50 }),
    limit: fc.integer({ min: -1, max: 600 }),
    after: fc.integer({ min: -1, max: 50 }),
    format: fc.constantFrom('json', 'xml'),
    task_id: fc.nat().map((i) => [...known.tasks, 't_missing'][i % (known.tasks.length + 1)]),
    run_id: fc.nat().map((i) => [...known.runs, 'r_missing'][i % (known.runs.length + 1)]),
  };
  return strings[field] ?? fc.string({ unit: 'grapheme', maxLength: 60 });
}

function fieldValue(field: string): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: plausible(field), weight: 3 }, { arbitrary: nastyValue, weight: 1 });
}

/** An object over the method's own fields (any subset), sometimes with a stranger key added. */
function fieldsObject(fields: string[], value: (field: string) => fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  const known = fc.record(Object.fromEntries(fields.map((f) => [f, value(f)])), { requiredKeys: [] });
  const stranger = sometimes(fc.tuple(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'id', 'data_dir'), fc.string({ maxLength: 8 })), nastyValue), 8);
  return fc.tuple(known, stranger).map(([object, extra]) => {
    const out: Record<string, unknown> = { ...object };
    if (extra !== undefined) Object.defineProperty(out, extra[0], { value: extra[1], enumerable: true, configurable: true, writable: true });
    return out;
  });
}

function queryFor(fields: string[]): fc.Arbitrary<string> {
  const stringify = (field: string) => fieldValue(field).map((v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '').slice(0, 2000));
  return fc
    .tuple(fieldsObject(fields, stringify), sometimes(fc.tuple(fc.constantFrom(...fields, 'format', 'after'), fc.string({ maxLength: 8 })), 8))
    .map(([object, repeated]) => {
      const params = new URLSearchParams(Object.entries(object).map(([k, v]): [string, string] => [k, String(v)]));
      // A repeated key becomes an array, which the contract's string fields must refuse.
      if (repeated !== undefined) params.append(...repeated);
      const text = params.toString();
      return text === '' ? '' : `?${text}`;
    });
}

function jsonBodyFor(fields: string[]): fc.Arbitrary<{ type: string; body: Buffer }> {
  const raw = fc.oneof(
    { arbitrary: fieldsObject(fields, fieldValue).map((o) => JSON.stringify(o)), weight: 8 },
    { arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)), weight: 1 },
    { arbitrary: fc.constantFrom('', '{', '{"a":', 'null', '[]', '"x"', '\0', '{"title":"\\u0000 nul"}', `{"content":"${OVER_BODY_LIMIT}"}`), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 60 }), weight: 1 },
  );
  const type = fc.oneof(
    { arbitrary: fc.constant('application/json'), weight: 8 },
    { arbitrary: fc.constantFrom('application/json; charset=utf-16', 'text/plain', '', 'APPLICATION/JSON', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=zz'), weight: 2 },
  );
  return fc.record({ type, body: raw.map((s) => Buffer.from(s, 'utf8')) });
}

/** multipart/form-data built by hand, sometimes cut short, sometimes with a boundary that never appears. */
const multipartBody: fc.Arbitrary<{ type: string; body: Buffer }> = fc
  .record({
    boundary: fc.stringMatching(/^[A-Za-z0-9'()+_,.:=?-]{1,40}$/),
    declared: fc.oneof({ arbitrary: fc.constant('same'), weight: 8 }, { arbitrary: fc.constantFrom('none', 'empty', 'other', 'quoted'), weight: 2 }),
    parts: fc.array(
      fc.record({
        name: fc.oneof(fc.constant('file'), nastyString.filter((s) => s.length < 200)),
        filename: fc.oneof({ arbitrary: fc.constant(undefined), weight: 1 }, { arbitrary: fc.oneof(fc.constantFrom('a.txt', 'notes.md', 'x.pdf', 'd.docx', '/', '..', '', 'a\0b.txt', '中文.md', 'x'.repeat(300), `${'报'.repeat(150)}.md`), fc.string({ unit: 'grapheme', maxLength: 30 })), weight: 4 }),
        extraHeader: sometimes(fc.constantFrom('Content-Type: text/plain', 'Content-Type: application/pdf', 'X-\0: 1', `X-Pad: ${'p'.repeat(17_000)}`, 'garbage', 'Content-Transfer-Encoding: base64'), 4),
        content: fc.oneof(fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)), fc.constantFrom(Buffer.from('%PDF-1.4\n'), Buffer.from('PK\u0003\u0004'), Buffer.alloc(270_000, 1))),
      }),
      { maxLength: 4 },
    ),
    cut: sometimes(fc.double({ min: 0, max: 1, noNaN: true }), 6),
  })
  .map(({ boundary, declared, parts, cut }) => {
    const chunks: Buffer[] = [];
    for (const p of parts) {
      const disposition = `Content-Disposition: form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
      const headers = [disposition, ...(p.extraHeader === undefined ? [] : [p.extraHeader])].join('\r\n');
      chunks.push(Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`, 'utf8'), p.content, Buffer.from('\r\n'));
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    let body = Buffer.concat(chunks);
    if (cut !== undefined) body = body.subarray(0, Math.floor(body.length * cut));
    const param = { same: `; boundary=${boundary}`, none: '', empty: '; boundary=', other: '; boundary=nope', quoted: `; boundary="${boundary}` }[declared];
    return { type: `multipart/form-data${param}`, body };
  });

/** Uploads that should succeed, with names that stress the core's own naming (long, CJK, odd). */
const wellFormedUpload: fc.Arbitrary<{ type: string; body: Buffer }> = fc
  .array(
    fc.record({
      filename: fc.oneof(fc.constantFrom('notes.md', 'x.pdf', 'd.docx', 's.xlsx', 'p.pptx', 'data.csv', '中文 报告.md', 'x'.repeat(300), `${'报'.repeat(150)}.md`, '.hidden', 'a.txt'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 })),
      content: fc.oneof(fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)), fc.constantFrom(Buffer.from('%PDF-1.4\n%%EOF'), Buffer.from('PK\u0003\u0004junk'), Buffer.from('a,b\n1,2\n'))),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((files) => {
    const parts = files.map((f) => Buffer.concat([Buffer.from(`--WF\r\nContent-Disposition: form-data; name="file"; filename="${f.filename.replace(/["\r\n]/g, '_')}"\r\n\r\n`), f.content, Buffer.from('\r\n')]));
    return { type: 'multipart/form-data; boundary=WF', body: Buffer.concat([...parts, Buffer.from('--WF--\r\n')]) };
  });

/** Header values never contain CR/LF: those would frame a different request, not test this one. */
const oddHeader = fc.oneof(
  fc.constantFrom<[string, string]>(
    ['Last-Event-ID', '-1'],
    ['Last-Event-ID', '99999999999999999999'],
    ['Last-Event-ID', 'abc'],
    ['Last-Event-ID', '2'],
    ['Transfer-Encoding', 'chunked'],
    ['Expect', '100-continue'],
    ['Content-Encoding', 'gzip'],
    ['Origin', 'http://evil.example'],
    ['Range', 'bytes=0-1'],
    ['X-Forwarded-For', '1.2.3.4'],
    ['Accept', 'text/event-stream'],
    ['Cookie', 'token=x'],
  ),
  fc.tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/), fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 })).map((v) => v.replace(/[\r\n]/g, ''))),
);
const extraHeaders = fc.oneof({ arbitrary: fc.constant<[string, string][]>([]), weight: 4 }, { arbitrary: fc.array(oddHeader, { minLength: 1, maxLength: 3 }), weight: 1 });

interface FuzzRequest {
  method: string;
  target: string;
  host: string | null;
  auth: string | null;
  type: string | null;
  body: Buffer;
  headers: [string, string][];
}

const requestArb: fc.Arbitrary<FuzzRequest> = fc.nat({ max: routeShapes.length * 10 }).chain((pick) => {
  // Mostly a route of the contract; sometimes a path that matches nothing.
  const shape: RouteShape = pick < routeShapes.length * 9 ? routeShapes[pick % routeShapes.length] : { method: 'GET', path: '/v1/nothing/:task_id', name: null };
  // Path parameters come from the path; sending them in the body or query as well is refused.
  const fields = inputFields(shape.name).filter((f) => !new RegExp(`[:*]${f}(/|$)`).test(shape.path));
  const isUpload = shape.path === UPLOAD_PATH && shape.method === 'POST';
  const payload = isUpload
    ? fc.oneof({ arbitrary: multipartBody, weight: 6 }, { arbitrary: wellFormedUpload, weight: 3 }, { arbitrary: jsonBodyFor(fields), weight: 1 })
    : shape.method === 'POST' || shape.method === 'PATCH'
      ? fc.oneof({ arbitrary: jsonBodyFor(fields), weight: 9 }, { arbitrary: multipartBody, weight: 1 })
      : fc.oneof({ arbitrary: fc.constant({ type: '', body: Buffer.alloc(0) }), weight: 9 }, { arbitrary: jsonBodyFor(fields), weight: 1 });
  return fc.record({
    method: fc.oneof({ arbitrary: fc.constant(shape.method), weight: 17 }, { arbitrary: anyMethod, weight: 3 }),
    target: fc.tuple(fillPath(shape.path), shape.method === 'GET' ? queryFor(fields) : fc.oneof({ arbitrary: fc.constant(''), weight: 9 }, { arbitrary: queryFor(fields), weight: 1 })).map(([p, q]) => p + q),
    host: fc.oneof({ arbitrary: fc.constant('ok'), weight: 38 }, { arbitrary: fc.constantFrom(null, 'evil.example', 'localhost', '127.0.0.1:1'), weight: 2 }),
    auth: fc.oneof({ arbitrary: fc.constant(`Bearer ${TOKEN}`), weight: 36 }, { arbitrary: fc.constantFrom(null, 'Bearer', `bearer  ${TOKEN}`, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, `Bearer ${'t'.repeat(8000)}`), weight: 4 }),
    payload,
    typeOverride: sometimes(fc.constantFrom('application/json', 'text/html'), 15),
    headers: extraHeaders,
  }).map(({ payload: p, typeOverride, ...r }) => ({ ...r, type: typeOverride ?? (p.type === '' ? null : p.type), body: p.body }));
});


interface Answer {
  status: number;
  head: string;
  body: string;
}

/** Sends one request verbatim and resolves once the answer's head (and up to 2 KB of body) has arrived. */
function send(r: FuzzRequest): Promise<Answer> {
  const lines = [`${r.method} ${r.target} HTTP/1.1`];
  if (r.host !== null) lines.push(`Host: ${r.host === 'ok' ? `127.0.0.1:${server.port}` : r.host}`);
  if (r.auth !== null) lines.push(`Authorization: ${r.auth}`);
  if (r.type !== null) lines.push(`Content-Type: ${r.type}`);
  if (r.body.length > 0 || r.method === 'POST' || r.method === 'PATCH') lines.push(`Content-Length: ${r.body.length}`);
  for (const [name, value] of r.headers) lines.push(`${name}: ${value}`);
  lines.push('Connection: close', '', '');
  const head = Buffer.from(lines.join('\r\n'), 'latin1');
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = received.toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      if (error && status === 0) reject(error);
      else resolve({ status, head: split === -1 ? text : text.slice(0, split), body: split === -1 ? '' : text.slice(split + 4, split + 2048) });
    };
    const timer = setTimeout(() => finish(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)), ANSWER_TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      // Interim answers (100 Continue) are not the answer.
      while (/^HTTP\/1\.1 1\d\d /.test(received.subarray(0, 13).toString('latin1')) && received.includes('\r\n\r\n')) {
        received = received.subarray(received.indexOf('\r\n\r\n') + 4);
      }
      const split = received.indexOf('\r\n\r\n');
      if (split !== -1 && (received.length > split + 2048 || /text\/event-stream/i.test(received.subarray(0, split).toString('latin1')))) finish();
    });
    // The server may answer (e.g. 401, 413) and close before the whole body was written.
    socket.on('error', () => finish(new Error('connection failed before an answer')));
    socket.on('close', () => finish(new Error('connection closed without an answer')));
    socket.write(Buffer.concat([head, r.body]));
  });
}

function describeRequest(r: FuzzRequest): string {
  const body = r.body.length > 300 ? `${r.body.subarray(0, 300).toString('latin1')}… (${r.body.length} bytes)` : r.body.toString('latin1');
  return JSON.stringify({ method: r.method, target: r.target.slice(0, 300), type: r.type, headers: r.headers, body });
}

describe('HTTP fuzzing (fixed seed)', () => {
  it(`answers ${RUNS} generated requests across every route without a 5xx, a hang or a crash`, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        let answer: Answer;
        try {
          answer = await send(r);
        } catch (error) {
          if (process.env.FUZZ_DUMP) writeFileSync(process.env.FUZZ_DUMP, JSON.stringify({ ...r, body: r.body.toString('base64') }));
          throw new Error(`${(error as Error).message}: ${describeRequest(r)}`);
        }
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const runId = /"run_id":"([A-Za-z0-9_-]+)"/.exec(answer.body)?.[1];
        if (runId !== undefined && !known.runs.includes(runId)) known.runs.splice(1, known.runs.length >= 4 ? 1 : 0, runId);
        await replaceDeletedTasks();
        if (answer.status === 0 || answer.status >= 500) {
          throw new Error(`status ${answer.status} for ${describeRequest(r)}\n${answer.head}\n${answer.body}\n${internalErrors.map(String).join('\n')}`);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    if (process.env.FUZZ_VERBOSE) console.log(JSON.stringify([...statuses].sort()));
    // The generator reached past the guards: successes and each kind of refusal were seen.
    for (const status of [200, 400, 401, 404, 405]) expect(statuses.get(status) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(0);
    expect(internalErrors).toEqual([]);
    // Still serving, and no upload left a temp folder behind.
    const ok = await send({ method: 'GET', target: '/v1/tasks', host: 'ok', auth: `Bearer ${TOKEN}`, type: null, body: Buffer.alloc(0), headers: [] });
    expect(ok.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(readdirSync(scratchDir(dataDir)).filter((n) => n.startsWith(UPLOAD_DIR_PREFIX))).toEqual([]);
  }, 90_000);
});
