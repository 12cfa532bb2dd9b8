// The worker's one LISTEN connection: every channel the cluster uses shares it. PostgreSQL drops
// notifications sent while a listener is disconnected, so on reconnect each user is told to re-read
// what it may have missed from the tables (the notifications only say where to look).
import pg from 'pg';

export type NotificationHandler = (payload: string) => void;

export interface ListenerOptions {
  connectionString: string;
  /** First wait before reconnecting; doubles up to 5 s. */
  retryMs?: number;
  onError?: (err: Error) => void;
}

const MAX_RETRY_MS = 5_000;

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
    const client = this.client;
    if (client) (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async connect(isReconnect: boolean): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.connectionString });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      if (err) this.options.onError?.(err);
      if (this.client === client) this.client = null;
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
    if (isReconnect) for (const handler of this.reconnectHandlers) handler();
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
