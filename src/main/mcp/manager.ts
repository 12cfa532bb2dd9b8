// The MCP servers' lifecycle, one connection per configured server shared by every task: started on
// first use, restarted on the next use after a crash or a changed config, all stopped with the app.
// Every request has a deadline (the server's timeout_ms, start_timeout_ms for the handshake) and the
// caller's AbortSignal, so a hung or dead server becomes an error, never a hung run.
import type { OutboundAudit } from '../net/outbound-audit';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpConfigProblem, McpPromptInfo, McpResourceInfo, McpServerInfo, McpStatus } from '../../shared/contract/mcp';
import { FolioError, NotFoundError } from '../../shared/errors';
import type { KeyStore } from '../models/keys';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_START_TIMEOUT_MS, readMcpConfigFile, type McpConfig, type McpServerConfig } from './config';
import { resultText, type McpCallOutcome } from './content';
import { wrapUntrusted } from '../tools/untrusted';
import { scrub, scrubDeep } from '../net/secret-scrub';
import { resolveSecrets, secretValues } from './secrets';
import { abortable } from './abortable';
import { modelToolName } from './tool-names';
import { attributed, sentAs, type McpAttribution } from './attribution';
import { isMcpError, loadMcpSdk } from './sdk';

/** A server that cannot be used right now (not configured, disabled, failed to start, crashed). */
export class McpUnavailableError extends FolioError {
  constructor(message: string) {
    super('tool_error', message, { name: 'McpUnavailableError' });
  }
}

export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: unknown;
}

interface Connection extends McpAttribution {
  config: McpServerConfig;
  /** The config this connection was started with; a different one means stop and start again. */
  fingerprint: string;
  status: McpStatus;
  error: string | null;
  client: Client | null;
  starting: Promise<Client> | null;
  tools: McpToolInfo[] | null;
  resources: number | null;
  prompts: number | null;
  secrets: string[];
  stderr: string;
}

export interface McpManagerOptions {
  configPath: string;
  keys: KeyStore;
  clientVersion?: string;
  /**
   * Whether a stdio server (a command) may be started. The team service says no: the command would
   * run on the shared worker. Saving one is refused there too, but an entry already in a tenant's
   * mcp.json (written before, or by hand on the shared mount) must not start either.
   */
  allowStdio?: boolean;
}

export const STDIO_REFUSED = 'This server runs a command (stdio), which the team service does not start: commands would run on the shared server. Use a Streamable HTTP server ("url").';

const STDERR_TAIL = 2000;

export class McpManager {
  private readonly connections = new Map<string, Connection>();
  private closed = false;

  constructor(private readonly opts: McpManagerOptions) {}

  /** Reads mcp.json afresh; servers whose entry changed or vanished are stopped (the next use starts them anew). */
  config(): McpConfig {
    const { config } = readMcpConfigFile(this.opts.configPath);
    const byName = new Map(config.servers.map((s) => [s.name, s]));
    for (const [name, conn] of this.connections) {
      const next = byName.get(name);
      if (!next || fingerprint(next) !== conn.fingerprint) {
        void this.stop(conn, 'stopped');
        this.connections.delete(name);
      }
    }
    return config;
  }

  /** Every configured server with its status, for Settings. Starts nothing. */
  list(): { servers: McpServerInfo[]; problems: McpConfigProblem[] } {
    const config = this.config();
    return { servers: config.servers.map((s) => this.info(s)), problems: config.problems };
  }

  info(server: McpServerConfig): McpServerInfo {
    const conn = this.connections.get(server.name);
    return {
      name: server.name,
      transport: server.transport,
      disabled: server.disabled === true,
      status: conn?.status ?? 'idle',
      error: conn?.error ?? null,
      tools: (conn?.tools ?? []).map((t) => ({ name: t.name, model_name: modelToolName(server.name, t.name), description: t.description })),
      resources: conn?.resources ?? null,
      prompts: conn?.prompts ?? null,
    };
  }

  /** The server's entry, enabled; throws for an unknown or disabled one. */
  server(name: string): McpServerConfig {
    const server = this.config().servers.find((s) => s.name === name);
    if (!server) throw new NotFoundError(`No MCP server "${name}" in mcp.json`);
    if (server.disabled) throw new McpUnavailableError(`The MCP server "${name}" is disabled in mcp.json.`);
    return server;
  }

  /** Stops the server (if running) and starts it now. */
  async restart(name: string, outbound: OutboundAudit | null): Promise<McpServerInfo> {
    const server = this.server(name);
    const conn = this.connections.get(name);
    if (conn) {
      this.connections.delete(name);
      await this.stop(conn, 'stopped');
    }
    await this.client(server, outbound).catch(() => undefined);
    return this.info(server);
  }

  /** The server's tools (starting it if needed). */
  async tools(name: string, outbound: OutboundAudit | null, signal?: AbortSignal): Promise<McpToolInfo[]> {
    const server = this.server(name);
    await abortable(this.client(server, outbound), signal);
    return this.connections.get(name)?.tools ?? [];
  }

  /** Calls a tool; every failure (timeout, crash, transport, isError) comes back as an error result. */
  async callTool(name: string, tool: string, args: Record<string, unknown>, signal: AbortSignal, outbound: OutboundAudit | null): Promise<{ text: string; isError: boolean }> {
    let server: McpServerConfig;
    let client: Client;
    try {
      server = this.server(name);
      client = await abortable(this.client(server, outbound), signal);
    } catch (err) {
      if (signal.aborted) throw err;
      return { text: err instanceof Error ? err.message : String(err), isError: true };
    }
    const timeout = server.timeout_ms ?? DEFAULT_CALL_TIMEOUT_MS;
    try {
      const result = await sentAs(this.connections.get(name), outbound, () => client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout, maxTotalTimeout: timeout }));
      const out = resultText(result as McpCallOutcome);
      return { text: wrapUntrusted(`MCP server "${name}", tool "${tool}"`, this.scrub(name, out.text)), isError: out.isError };
    } catch (err) {
      if (signal.aborted) throw err;
      return { text: this.failure(server, err, `calling ${tool}`), isError: true };
    }
  }

  async listResources(name: string, outbound: OutboundAudit | null): Promise<McpResourceInfo[]> {
    return this.request(name, outbound, async (client, opts, as) => {
      if (!client.getServerCapabilities()?.resources) return [];
      const out: McpResourceInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await as(() => client.listResources(cursor ? { cursor } : undefined, opts));
        for (const r of page.resources) out.push({ uri: r.uri, name: r.name, description: r.description ?? null, mime_type: r.mimeType ?? null });
        cursor = page.nextCursor;
      } while (cursor && out.length < 10_000);
      return scrubDeep(out, this.connections.get(name)?.secrets ?? []);
    });
  }

  /** A resource's contents: text, or bytes for binary ones (a PDF is saved as a PDF). */
  async readResource(name: string, uri: string, outbound: OutboundAudit | null): Promise<{ text: string | null; bytes: Buffer | null; mimeType: string | null }> {
    return this.request(name, outbound, async (client, opts, as) => {
      const result = await as(() => client.readResource({ uri }, opts));
      const texts = result.contents.flatMap((c) => ('text' in c && typeof c.text === 'string' ? [c.text] : []));
      const first = result.contents[0];
      if (texts.length > 0) return { text: this.scrub(name, texts.join('\n\n')), bytes: null, mimeType: first?.mimeType ?? null };
      const blob = first && 'blob' in first && typeof first.blob === 'string' ? first.blob : null;
      if (blob === null) throw new FolioError('tool_error', `The MCP resource ${uri} has no content.`);
      return { text: null, bytes: Buffer.from(blob, 'base64'), mimeType: first?.mimeType ?? null };
    });
  }

  async listPrompts(name: string, outbound: OutboundAudit | null): Promise<McpPromptInfo[]> {
    return this.request(name, outbound, async (client, opts, as) => {
      if (!client.getServerCapabilities()?.prompts) return [];
      const out: McpPromptInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await as(() => client.listPrompts(cursor ? { cursor } : undefined, opts));
        for (const p of page.prompts) {
          out.push({
            name: p.name,
            description: p.description ?? null,
            arguments: (p.arguments ?? []).map((a) => ({ name: a.name, description: a.description ?? null, required: a.required === true })),
          });
        }
        cursor = page.nextCursor;
      } while (cursor && out.length < 10_000);
      return scrubDeep(out, this.connections.get(name)?.secrets ?? []);
    });
  }

  /** A prompt rendered with its arguments, its messages' text joined, for the composer. */
  async renderPrompt(name: string, prompt: string, args: Record<string, string>, outbound: OutboundAudit | null): Promise<string> {
    return this.request(name, outbound, async (client, opts, as) => {
      const result = await as(() => client.getPrompt({ name: prompt, arguments: args }, opts));
      const parts = result.messages.map((m) => resultText({ content: [m.content] }).text);
      return this.scrub(name, parts.join('\n\n'));
    });
  }

  /** Stops every server; later uses are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((c) => this.stop(c, 'stopped')));
  }

  /** `work`'s client calls go through `as`, so each request is charged to `outbound`. */
  private async request<T>(
    name: string,
    outbound: OutboundAudit | null,
    work: (client: Client, opts: { timeout: number }, as: <R>(send: () => Promise<R>) => Promise<R>) => Promise<T>,
  ): Promise<T> {
    const server = this.server(name);
    const client = await this.client(server, outbound);
    try {
      return await work(client, { timeout: server.timeout_ms ?? DEFAULT_CALL_TIMEOUT_MS }, (send) => sentAs(this.connections.get(name), outbound, send));
    } catch (err) {
      if (err instanceof FolioError) throw err;
      throw new FolioError('tool_error', this.failure(server, err, 'asking it'));
    }
  }

  /** The live client, starting the server if needed (one start at a time per server), charged to `outbound` if it starts. */
  private client(server: McpServerConfig, outbound: OutboundAudit | null): Promise<Client> {
    if (this.closed) return Promise.reject(new McpUnavailableError('Folio is shutting down; MCP servers are stopped.'));
    let conn = this.connections.get(server.name);
    if (conn && conn.fingerprint !== fingerprint(server)) {
      void this.stop(conn, 'stopped');
      conn = undefined;
    }
    if (!conn) {
      conn = { config: server, fingerprint: fingerprint(server), status: 'idle', error: null, client: null, starting: null, tools: null, resources: null, prompts: null, secrets: [], stderr: '', opener: null, sending: null, byId: new Map() };
      this.connections.set(server.name, conn);
    }
    if (conn.client && conn.status === 'ready') return Promise.resolve(conn.client);
    if (conn.starting) return conn.starting;
    const c = conn;
    const starting = this.start(c, outbound).finally(() => {
      c.starting = null;
    });
    c.starting = starting;
    return starting;
  }

  private async start(conn: Connection, outbound: OutboundAudit | null): Promise<Client> {
    const server = conn.config;
    conn.opener = outbound;
    conn.byId.clear();
    conn.status = 'starting';
    conn.error = null;
    conn.stderr = '';
    if (server.transport === 'stdio' && this.opts.allowStdio === false) return this.fail(conn, STDIO_REFUSED);
    const secretSource = server.transport === 'stdio' ? server.env : server.headers;
    const resolved = resolveSecrets(secretSource, this.opts.keys);
    conn.secrets = secretValues(secretSource, this.opts.keys);
    if (resolved.missing.length > 0) {
      return this.fail(conn, `The stored value of ${resolved.missing.join(', ')} is missing from the key store; enter it again in Settings → MCP.`);
    }
    const { Client, StdioClientTransport, StreamableHTTPClientTransport } = await loadMcpSdk();
    let transport: Transport;
    if (server.transport === 'stdio') {
      const stdio = new StdioClientTransport({
        command: server.command,
        args: server.args,
        // The SDK adds only a safe default environment (PATH, HOME, ...), never Folio's own (API keys).
        env: resolved.values,
        stderr: 'pipe',
        ...(server.cwd ? { cwd: server.cwd } : {}),
      });
      stdio.stderr?.on('data', (chunk: Buffer) => {
        conn.stderr = (conn.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
      transport = stdio;
    } else {
      transport = attributed(conn, (fetch) => new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: resolved.values }, fetch }));
    }
    const client = new Client({ name: 'folio', version: this.opts.clientVersion ?? '1.0.0' }, { capabilities: {} });
    client.onclose = () => {
      // A close Folio did not ask for: the process exited or the connection dropped.
      if (conn.client !== client || conn.status === 'stopped') return;
      conn.client = null;
      conn.status = 'error';
      conn.error = this.scrubConn(conn, `The server stopped unexpectedly${stderrNote(conn)}. It restarts on next use.`);
    };
    const startTimeout = server.start_timeout_ms ?? DEFAULT_START_TIMEOUT_MS;
    try {
      await client.connect(transport, { timeout: startTimeout, maxTotalTimeout: startTimeout });
      const tools: McpToolInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: startTimeout });
        for (const t of page.tools) tools.push({ name: t.name, description: t.description ?? t.title ?? '', inputSchema: t.inputSchema });
        cursor = page.nextCursor;
      } while (cursor && tools.length < 1000);
      const caps = client.getServerCapabilities();
      conn.resources = caps?.resources ? await countOrNull(() => client.listResources(undefined, { timeout: startTimeout }).then((r) => r.resources.length)) : null;
      conn.prompts = caps?.prompts ? await countOrNull(() => client.listPrompts(undefined, { timeout: startTimeout }).then((r) => r.prompts.length)) : null;
      conn.tools = scrubDeep(tools, conn.secrets);
    } catch (err) {
      await client.close().catch(() => undefined);
      await transport.close().catch(() => undefined);
      return this.fail(conn, `Could not start: ${describe(err, startTimeout)}${stderrNote(conn)}`);
    }
    if (this.closed || this.connections.get(server.name) !== conn) {
      await client.close().catch(() => undefined);
      throw new McpUnavailableError(`The MCP server "${server.name}" was stopped while starting.`);
    }
    conn.client = client;
    conn.status = 'ready';
    return client;
  }

  private fail(conn: Connection, message: string): never {
    conn.status = 'error';
    conn.error = this.scrubConn(conn, message);
    throw new McpUnavailableError(`MCP server "${conn.config.name}": ${conn.error}`);
  }

  /** Explains a failed request; a dropped HTTP connection or session is dropped so the next use reconnects. */
  private failure(server: McpServerConfig, err: unknown, doing: string): string {
    const conn = this.connections.get(server.name);
    const timeout = server.timeout_ms ?? DEFAULT_CALL_TIMEOUT_MS;
    const closed = isMcpError(err, 'ConnectionClosed');
    const timedOut = isMcpError(err, 'RequestTimeout');
    const transportBroke = !isMcpError(err);
    if (conn && (closed || transportBroke)) {
      const detail = closed ? `the server stopped while ${doing}${stderrNote(conn)}` : `the connection failed while ${doing}: ${describe(err, timeout)}`;
      conn.status = 'error';
      conn.error = this.scrubConn(conn, `${detail[0].toUpperCase()}${detail.slice(1)}. It restarts on next use.`);
      const client = conn.client;
      conn.client = null;
      void client?.close().catch(() => undefined);
    }
    const what = timedOut ? `no answer within ${timeout / 1000} s (timeout_ms in mcp.json)` : conn?.error && (closed || transportBroke) ? conn.error : describe(err, timeout);
    return this.scrub(server.name, `MCP server "${server.name}" failed ${doing}: ${what}`);
  }

  private async stop(conn: Connection, status: McpStatus): Promise<void> {
    conn.status = status;
    const client = conn.client;
    conn.client = null;
    await client?.close().catch(() => undefined);
  }

  private scrub(name: string, text: string): string {
    const conn = this.connections.get(name);
    return conn ? scrub(text, conn.secrets) : text;
  }

  private scrubConn(conn: Connection, text: string): string {
    return scrub(text, conn.secrets);
  }
}

function fingerprint(server: McpServerConfig): string {
  return JSON.stringify(server);
}

function stderrNote(conn: Connection): string {
  const tail = conn.stderr.trim().split('\n').slice(-3).join(' | ').slice(-500);
  return tail ? ` (stderr: ${tail})` : '';
}

function describe(err: unknown, timeoutMs: number): string {
  if (isMcpError(err, 'RequestTimeout')) return `no answer within ${timeoutMs / 1000} s`;
  if (err instanceof Error) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return `${err.message}${cause}`;
  }
  return String(err);
}

async function countOrNull(count: () => Promise<number>): Promise<number | null> {
  try {
    return await count();
  } catch {
    return null;
  }
}
