// The worker's one LISTEN connection: every channel the cluster uses shares it. PostgreSQL drops
// notifications sent while a listener is disconnected, so on reconnect each user is told to re-read
// what it may have missed from the tables (the notifications only say where to look). A connection
// that dies without a word (a NAT or firewall forgetting it, a failover, a frozen peer) raises no
// error on a socket that only listens, so it is pinged: one that does not answer is dropped and
// replaced, like one that failed.
import pg from 'pg';

export type NotificationHandler = (payload: string) => void;

export interface ListenerOptions {
  connectionString: string;
  /** First wait before reconnecting; doubles up to 5 s. */
  retryMs?: number;
  onError?: (err: Error) => void;
  /** How often the connection is asked a trivial query. */
  pingMs?: number;
  /** How long a ping may take before the connection counts as dead. */
  pingTimeoutMs?: number;
}

const MAX_RETRY_MS = 5_000;
export const DEFAULT_LISTENER_PING_MS = 10_000;
export const DEFAULT_LISTENER_PING_TIMEOUT_MS = 5_000;

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`invalid channel name ${name}`);
  return `"${name}"`;
}

export class Listener {
  private client: pg.Client | null = null;
  private readonly handlers = new Map<string, Set<NotificationHandler>>();
  private readonly reconnectHandlers = new Set<() => void>();
  private closed = false;
  private connecting: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private retryMs: number;

  constructor(private readonly options: ListenerOptions) {
    this.retryMs = options.retryMs ?? 100;
  }

  /** Connects and listens on every channel registered so far; resolves once listening. */
  start(): Promise<void> {
    this.connecting ??= this.connect(false);
    return this.connecting;
  }

  /** Registers a handler; the channel is listened to at the next (re)connect or at once if connected. */
  async on(channel: string, handler: NotificationHandler): Promise<void> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      if (this.client) await this.client.query(`LISTEN ${quoteIdent(channel)}`);
    }
    set.add(handler);
  }

  /** Called after every reconnect (not the first connect), once the channels are listened to again. */
  onReconnect(handler: () => void): void {
    this.reconnectHandlers.add(handler);
  }

  /** For tests: drops the connection as a network failure would. */
  breakConnection(): void {
    if (this.client) destroySocket(this.client);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.stopPing();
    const client = this.client;
    this.client = null;
    if (!client) return;
    // A polite end waits for the server's answer, which a dead connection never sends.
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      client.end().then(() => true, () => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), this.options.pingTimeoutMs ?? DEFAULT_LISTENER_PING_TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
    if (!ended) destroySocket(client);
  }

  private async connect(isReconnect: boolean): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.connectionString, keepAlive: true });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      if (err) this.options.onError?.(err);
      if (this.client === client) {
        this.client = null;
        this.stopPing();
      }
      client.removeAllListeners('notification');
      void client.end().catch(() => {});
      this.scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (msg) => {
      for (const handler of this.handlers.get(msg.channel) ?? []) {
        try {
          handler(msg.payload ?? '');
        } catch (err) {
          this.options.onError?.(err as Error);
        }
      }
    });
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${quoteIdent(channel)}`);
    } catch (err) {
      onLost(err as Error);
      if (!isReconnect) throw err;
      return;
    }
    if (this.closed) {
      lost = true;
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.retryMs = this.options.retryMs ?? 100;
    this.startPing(client);
    if (isReconnect) for (const handler of this.reconnectHandlers) handler();
  }

  private startPing(client: pg.Client): void {
    this.stopPing();
    const timeoutMs = this.options.pingTimeoutMs ?? DEFAULT_LISTENER_PING_TIMEOUT_MS;
    let inFlight = false;
    this.pingTimer = setInterval(() => {
      if (inFlight || this.client !== client) return;
      inFlight = true;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
        timer.unref();
      });
      void Promise.race([client.query('SELECT 1').then(() => 'ok' as const, () => 'failed' as const), timedOut]).then((outcome) => {
        clearTimeout(timer);
        inFlight = false;
        if (outcome === 'ok' || this.client !== client) return;
        this.options.onError?.(new Error(`The LISTEN connection did not answer a ping (${outcome}); reconnecting`));
        // Destroying the socket makes the client end, and its 'end' reconnects (see connect).
        destroySocket(client);
      });
    }, this.options.pingMs ?? DEFAULT_LISTENER_PING_MS);
    this.pingTimer.unref();
  }

  private stopPing(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retryTimer) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.closed) void this.connect(true);
    }, wait);
    this.retryTimer.unref();
  }
}

function destroySocket(client: pg.Client): void {
  (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
}
