// A scripted OpenAI-compatible server for tests: real HTTP on 127.0.0.1, real SSE in the exact chunk
// format providers send, and faults (status codes, stalls, dropped sockets) on demand. Test support
// only; it is never offered as a model. Every request takes the next scripted step (FIFO).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type Socket } from 'node:net';
import { readBody, sendJson, sleep } from '../http-helpers';
import { fakeEmbeddingsAnswer } from './embeddings';

export interface FakeToolCall {
  id?: string;
  name: string;
  /** The full JSON arguments string; streamed in several pieces like real providers do. */
  arguments: string;
}

export interface FakeReply {
  text?: string;
  reasoning?: string;
  /** `reasoning_content` (DeepSeek, GLM, Qwen; default) or `reasoning` (Ollama). */
  reasoningField?: 'reasoning_content' | 'reasoning';
  toolCalls?: FakeToolCall[];
  usage?: { prompt: number; completion: number };
  /** Omit the usage chunk even when the client asked for it (some providers never send one). */
  noUsage?: boolean;
  finishReason?: string;
  chunkDelayMs?: number;
  /** Characters per text/reasoning delta and per tool-argument piece. Default 8. */
  chunkSize?: number;
}

export type FakeFault =
  /** `delayMs`: the status is sent only after this long (a slow or blackholed provider). */
  | { fault: 'status'; status: number; retryAfter?: number; retryAfterMs?: number; body?: unknown; delayMs?: number }
  /** Sends `afterChunks` chunks (default 1), then nothing, keeping the socket open until closed. */
  | { fault: 'stall'; afterChunks?: number; text?: string }
  /** Sends `afterChunks` chunks, then destroys the socket. */
  | { fault: 'drop'; afterChunks: number }
  /** Sends `afterChunks` chunks, then ends the response cleanly without finish_reason or [DONE]. */
  | { fault: 'truncate'; afterChunks: number };

export type FakeStep = FakeReply | FakeFault;

export interface RecordedRequest {
  method: string;
  path: string;
  /** Parsed JSON body (undefined for GET or an unparsable body). */
  body: unknown;
  /** Request headers without Authorization. */
  headers: Record<string, string>;
  hasAuth: boolean;
  /** The last 4 characters of the bearer token, enough to tell keys apart without recording one. */
  authLast4: string | null;
}

export interface FakeOpenAI {
  /** Base URL ending in /v1, e.g. http://127.0.0.1:41234/v1 */
  url: string;
  port: number;
  script(steps: FakeStep[]): void;
  readonly requests: RecordedRequest[];
  /** Steps not yet consumed. */
  pending(): number;
  reset(): void;
  close(): Promise<void>;
  /** Refuse chat requests carrying these parameters with a 400, like a provider that does not know them (reasoning checks). */
  rejectParams(rules: FakeParamRule[]): void;
  // ---- lib-search ----
  /** Faults for the next /v1/embeddings requests (FIFO); without one, an answer (see embeddings.ts). */
  scriptEmbeddings(faults: FakeFault[]): void;
  /** Faults for the next GET /v1/models requests (FIFO): a refused key, a provider that never answers. */
  scriptModelList(faults: FakeFault[]): void;
}

export async function startFakeOpenAI(opts: { port?: number } = {}): Promise<FakeOpenAI> {
  const queue: FakeStep[] = [];
  const requests: RecordedRequest[] = [];
  const rejections: FakeParamRule[] = [];
  const embeddingFaults: FakeFault[] = [];
  const modelListFaults: FakeFault[] = [];
  const sockets = new Set<Socket>();
  let completionCounter = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(`fake-openai: ${err instanceof Error ? err.message : String(err)}`));
      else res.destroy();
    });
  });
  // Never close an idle keep-alive socket: a client (a test's fetch, or Folio) that reuses one just as
  // the server's idle timer closes it gets "other side closed" for a request the server never read.
  // Idle sockets are ended with the server (`sockets`).
  server.keepAliveTimeout = 0;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      body = undefined;
    }

    if (path.startsWith('/__control/')) return control(req.method ?? 'GET', path, body, res);

    requests.push(record(req, path, body));
    if (req.method === 'GET' && path === '/v1/models') {
      const fault = modelListFaults.shift();
      if (fault?.fault === 'status') return sendJson(res, fault.status, fault.body ?? errorBody(`fake-openai: scripted status ${fault.status}`, fault.status));
      if (fault !== undefined) return applyNonStreamingFault(fault, res);
      return sendJson(res, 200, {
        object: 'list',
        data: [{ id: 'fake-model', object: 'model', created: 1_700_000_000, owned_by: 'fake-openai' }],
      });
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      if (!isRecord(body)) return sendJson(res, 400, errorBody('fake-openai: the body must be a JSON object'));
      // Like the real APIs, refuse a conversation whose tool results do not follow their calls.
      const shapeError = conversationShapeError(body.messages);
      if (shapeError) return sendJson(res, 400, { error: { message: shapeError, type: 'invalid_request_error', code: null } });
      const refused = refusedParam(rejections, body);
      if (refused) return sendJson(res, 400, { error: { message: refused, type: 'invalid_request_error', code: 'invalid_parameter' } });
      const step = queue.shift();
      if (step === undefined) return sendJson(res, 500, errorBody('fake-openai: no scripted step left'));
      completionCounter += 1;
      return respond(step, body, res, `chatcmpl-fake-${completionCounter}`);
    }
    // ---- lib-search: embeddings answer unscripted (deterministic vectors) unless a fault is queued ----
    if (req.method === 'POST' && path === '/v1/embeddings') {
      const fault = embeddingFaults.shift();
      if (fault?.fault === 'status') return sendJson(res, fault.status, fault.body ?? errorBody(`fake-openai: scripted status ${fault.status}`, fault.status));
      if (fault !== undefined) return applyNonStreamingFault(fault, res);
      const answer = fakeEmbeddingsAnswer(body);
      return answer === null ? sendJson(res, 400, errorBody("fake-openai: 'input' must be a string or an array of strings")) : sendJson(res, 200, answer);
    }
    sendJson(res, 404, errorBody(`fake-openai: no route for ${req.method ?? ''} ${path}`));
  }

  function control(method: string, path: string, body: unknown, res: ServerResponse): void {
    if (method === 'POST' && path === '/__control/script') {
      if (!Array.isArray(body) || !body.every(isRecord)) return sendJson(res, 400, errorBody('fake-openai: expected a JSON array of steps'));
      queue.push(...(body as FakeStep[]));
      return sendJson(res, 200, { ok: true, pending: queue.length });
    }
    if (method === 'POST' && path === '/__control/reset') {
      reset();
      return sendJson(res, 200, { ok: true });
    }
    if (method === 'GET' && path === '/__control/requests') return sendJson(res, 200, requests);
    if (method === 'POST' && path === '/__control/embeddings-script') {
      if (!Array.isArray(body) || !body.every(isRecord)) return sendJson(res, 400, errorBody('fake-openai: expected a JSON array of faults'));
      embeddingFaults.push(...(body as FakeFault[]));
      return sendJson(res, 200, { ok: true });
    }
    if (method === 'POST' && path === '/__control/models-script') {
      if (!Array.isArray(body) || !body.every(isRecord)) return sendJson(res, 400, errorBody('fake-openai: expected a JSON array of faults'));
      modelListFaults.push(...(body as FakeFault[]));
      return sendJson(res, 200, { ok: true });
    }
    if (method === 'POST' && path === '/__control/reject-params') {
      if (!Array.isArray(body) || !body.every(isParamRule)) return sendJson(res, 400, errorBody('fake-openai: expected [{param, value?}]'));
      rejections.push(...body);
      return sendJson(res, 200, { ok: true });
    }
    sendJson(res, 404, errorBody(`fake-openai: no control route ${method} ${path}`));
  }

  function reset(): void {
    queue.length = 0;
    requests.length = 0;
    rejections.length = 0;
    embeddingFaults.length = 0;
    modelListFaults.length = 0;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake-openai: no TCP address');
  const port = address.port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    script: (steps) => void queue.push(...steps),
    requests,
    pending: () => queue.length,
    reset,
    rejectParams: (rules) => void rejections.push(...rules),
    scriptEmbeddings: (faults) => void embeddingFaults.push(...faults),
    scriptModelList: (faults) => void modelListFaults.push(...faults),
    close: () =>
      new Promise<void>((resolve) => {
        // Stalled streams keep sockets open on purpose; close must not wait for them.
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function respond(step: FakeStep, body: Record<string, unknown>, res: ServerResponse, id: string): Promise<void> {
  const stream = body.stream === true;
  const model = typeof body.model === 'string' ? body.model : 'fake-model';

  if ('fault' in step && step.fault === 'status') {
    const headers: Record<string, string> = {};
    if (step.retryAfter !== undefined) headers['retry-after'] = String(step.retryAfter);
    if (step.retryAfterMs !== undefined) headers['retry-after-ms'] = String(step.retryAfterMs);
    if (step.delayMs !== undefined) await sleep(step.delayMs);
    if (res.destroyed) return;
    return sendJson(res, step.status, step.body ?? errorBody(`fake-openai: scripted status ${step.status}`, step.status), headers);
  }

  const reply: FakeReply = 'fault' in step ? { text: ('text' in step ? step.text : undefined) ?? 'partial output that will be lost' } : step;
  const created = Math.floor(Date.now() / 1000);
  const chunks = buildChunks(reply, { id, model, created });
  const usage = reply.usage
    ? { prompt_tokens: reply.usage.prompt, completion_tokens: reply.usage.completion, total_tokens: reply.usage.prompt + reply.usage.completion }
    : estimateUsage(body, reply);

  if (!stream) {
    if ('fault' in step) return applyNonStreamingFault(step, res);
    return sendJson(res, 200, buildCompletion(reply, { id, model, created }, usage));
  }

  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  const delay = reply.chunkDelayMs ?? 0;
  const limit = 'fault' in step ? (step.afterChunks ?? 1) : Infinity;

  let sent = 0;
  for (const chunk of chunks) {
    if (sent >= limit) break;
    if (res.destroyed) return;
    if (delay > 0) await sleep(delay);
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    sent += 1;
  }

  if ('fault' in step) {
    if (step.fault === 'drop') res.socket?.destroy();
    else if (step.fault === 'truncate') res.end();
    // 'stall': leave the response open; the client's watchdog or close() ends it.
    return;
  }

  const options = isRecord(body.stream_options) ? body.stream_options : {};
  if (options.include_usage === true && reply.noUsage !== true) {
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`);
  }
  res.write('data: [DONE]\n\n');
  res.end();
}

function applyNonStreamingFault(step: FakeFault, res: ServerResponse): void {
  if (step.fault === 'drop' || step.fault === 'truncate') res.socket?.destroy();
  // 'stall': never answer.
}

interface ChunkMeta {
  id: string;
  model: string;
  created: number;
}

type Delta = Record<string, unknown>;

/** The chunks of one streamed reply: role, reasoning, text, tool calls, then the finish chunk. */
function buildChunks(reply: FakeReply, meta: ChunkMeta): Record<string, unknown>[] {
  const size = Math.max(1, reply.chunkSize ?? 8);
  const deltas: Delta[] = [{ role: 'assistant', content: '' }];
  const reasoningField = reply.reasoningField ?? 'reasoning_content';
  for (const piece of split(reply.reasoning ?? '', size)) deltas.push({ content: null, [reasoningField]: piece });
  for (const piece of split(reply.text ?? '', size)) deltas.push({ content: piece });
  (reply.toolCalls ?? []).forEach((call, index) => {
    const callId = call.id ?? `call_fake_${index}_${Math.random().toString(36).slice(2, 10)}`;
    deltas.push({ tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of split(call.arguments, size)) deltas.push({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  const finish = reply.finishReason ?? ((reply.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop');
  const chunks = deltas.map((delta) => chunk(meta, delta, null));
  chunks.push(chunk(meta, {}, finish));
  return chunks;
}

function chunk(meta: ChunkMeta, delta: Delta, finishReason: string | null): Record<string, unknown> {
  return {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    system_fingerprint: 'fp_fake',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
}

function buildCompletion(reply: FakeReply, meta: ChunkMeta, usage: Record<string, number>): Record<string, unknown> {
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_fake_${index}`,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  const message: Record<string, unknown> = { role: 'assistant', content: reply.text ?? (toolCalls.length > 0 ? null : '') };
  if (reply.reasoning !== undefined) message[reply.reasoningField ?? 'reasoning_content'] = reply.reasoning;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    system_fingerprint: 'fp_fake',
    choices: [{ index: 0, message, logprobs: null, finish_reason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop') }],
    usage,
  };
}

function estimateUsage(body: Record<string, unknown>, reply: FakeReply): Record<string, number> {
  const promptChars = JSON.stringify(body.messages ?? []).length;
  const outChars = (reply.text ?? '').length + (reply.reasoning ?? '').length + (reply.toolCalls ?? []).reduce((n, c) => n + c.arguments.length, 0);
  const prompt = Math.max(1, Math.ceil(promptChars / 4));
  const completion = Math.max(1, Math.ceil(outChars / 4));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function split(s: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

/**
 * OpenAI's rule, which DeepSeek, GLM and Qwen share: an assistant message with `tool_calls` must be
 * followed by one tool message per call id, and a tool message must answer such a call.
 */
export function conversationShapeError(messages: unknown): string | null {
  if (!Array.isArray(messages)) return "'messages' must be an array";
  let expected: string[] = [];
  for (const [i, m] of messages.entries()) {
    if (!isRecord(m)) return `messages[${i}] must be an object`;
    if (m.role === 'tool') {
      const id = typeof m.tool_call_id === 'string' ? m.tool_call_id : '';
      if (!expected.includes(id)) return `messages[${i}]: messages with role 'tool' must be a response to a preceding message with 'tool_calls' (${id})`;
      expected = expected.filter((x) => x !== id);
      continue;
    }
    if (expected.length > 0) {
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. Missing: ${expected.join(', ')}`;
    }
    if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      expected = m.tool_calls.flatMap((c) => (isRecord(c) && typeof c.id === 'string' ? [c.id] : []));
    }
  }
  if (expected.length > 0) return `Tool calls without responses at the end of the conversation: ${expected.join(', ')}`;
  return null;
}

function errorBody(message: string, status?: number): { error: { message: string; type: string; code: string | null } } {
  const type = status === 401 ? 'invalid_request_error' : status === 429 ? 'rate_limit_exceeded' : 'server_error';
  return { error: { message, type, code: status === undefined ? null : String(status) } };
}


function record(req: IncomingMessage, path: string, body: unknown): RecordedRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name === 'authorization' || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const auth = req.headers.authorization;
  const token = auth?.replace(/^Bearer\s+/i, '') ?? '';
  return { method: req.method ?? 'GET', path, body, headers, hasAuth: token !== '', authLast4: token === '' ? null : token.slice(-4) };
}


function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A profile yaml pointing at a fake server, for e2e tests that write it to <data>/models/fake.yaml. */
export function fakeProfileYaml(url: string, overrides: Record<string, string | number | boolean> = {}): string {
  const fields: Record<string, string | number | boolean> = {
    name: 'Fake model',
    model: 'fake-model',
    max_context: 32768,
    max_output: 4096,
    parallel_tools: true,
    thinking_mode: 'none',
    ...overrides,
  };
  const lines = Object.entries(fields).map(([k, v]) => `    ${k}: ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`);
  return [`provider: fake`, `api_base: ${JSON.stringify(url)}`, `api_key_env: null`, `profiles:`, `  main:`, ...lines, ''].join('\n');
}

// ---- parameter refusals ----

/** A top-level body parameter the fake refuses: any value, or only this exact (JSON-equal) value. */
export interface FakeParamRule {
  param: string;
  value?: unknown;
}

function isParamRule(value: unknown): value is FakeParamRule {
  return isRecord(value) && typeof value.param === 'string';
}

/** The provider-style message for the first rule the body breaks, or null. */
function refusedParam(rules: FakeParamRule[], body: Record<string, unknown>): string | null {
  for (const rule of rules) {
    if (!(rule.param in body)) continue;
    if (!('value' in rule)) return `Unknown parameter: '${rule.param}'.`;
    if (JSON.stringify(body[rule.param]) === JSON.stringify(rule.value)) {
      return `Invalid value for '${rule.param}': ${JSON.stringify(rule.value)} is not supported with this model.`;
    }
  }
  return null;
}
