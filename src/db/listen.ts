import pg from 'pg';

export interface ChannelHandlers {
  /** A notification on the channel. */
  message(payload: string): void;
  /** LISTEN is in place: from now on every notification is heard. */
  up(): void;
  /** The connection is lost or not yet listening: notifications may be missed until `up`. */
  down(error?: Error): void;
}

export interface ChannelListener {
  /** Notifies the channel from the listening connection; false when it is down. */
  send(payload: string): Promise<boolean>;
  /** How many connections listen on the channel now, this one included (they name themselves after it); undefined when down. */
  listeners(): Promise<number | undefined>;
  close(): Promise<void>;
}

/** Names a channel per schema: installs (and test suites) sharing one database do not hear each other. */
export const channelName = (base: string, schema: string | undefined): string => (schema ? `${base}_${schema}` : base).slice(0, 63);

/**
 * Listens to one PostgreSQL channel on a connection of its own (a pooled connection would be
 * handed to queries and its LISTEN lost), for as long as the process runs: when the connection
 * is lost it says so (`down`) and connects again, every `retryMs`, until `close`.
 */
export function listenToChannel(url: string, channel: string, handlers: ChannelHandlers, retryMs = 1000): ChannelListener {
  let closed = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;

  const retry = (error?: Error) => {
    handlers.down(error);
    const lost = client;
    client = undefined;
    lost?.removeAllListeners();
    // The lost client's own errors after this are of no interest, but must not be unhandled.
    lost?.on('error', () => undefined);
    void lost?.end().catch(() => undefined);
    if (!closed && !timer) timer = setTimeout(() => void connect(), retryMs);
  };

  async function connect() {
    timer = undefined;
    if (closed) return;
    // Named after the channel, so that every process can count the others listening.
    const next = new pg.Client({ connectionString: url, keepAlive: true, application_name: channel });
    client = next;
    next.on('error', (error) => client === next && retry(error));
    next.on('end', () => client === next && retry(new Error('the notification connection ended')));
    next.on('notification', (message) => {
      if (client === next && message.channel === channel) handlers.message(message.payload ?? '');
    });
    try {
      await next.connect();
      await next.query(`listen "${channel.replaceAll('"', '""')}"`);
      if (client === next && !closed) handlers.up();
    } catch (error) {
      if (client === next) retry(error as Error);
    }
  }

  handlers.down();
  void connect();
  const live = () => (client && !timer ? client : undefined);
  // One query at a time on the connection (pg queues concurrent ones, but is to stop doing so):
  // answers to notifications and barriers may be asked for together.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(query: (target: pg.Client) => Promise<T>, failed: T): Promise<T> => {
    const next = queue.then(() => {
      const target = live();
      return target ? query(target) : failed;
    });
    queue = next.catch(() => undefined);
    return next.catch(() => failed);
  };
  return {
    send: (payload) =>
      serially(async (target) => {
        await target.query('select pg_notify($1, $2)', [channel, payload]);
        return true;
      }, false),
    listeners: () =>
      serially(async (target) => {
        const { rows } = await target.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where application_name = $1 and datname = current_database()',
          [channel],
        );
        return rows[0]?.n;
      }, undefined),
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const last = client;
      client = undefined;
      handlers.down();
      await last?.end().catch(() => undefined);
    },
  };
}
