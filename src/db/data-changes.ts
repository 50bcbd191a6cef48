// Whether anything in the database may have changed since a moment, asked without a query: what
// a process caches from the database (the response cache, src/http/response-cache.ts) is kept
// only under the stamp it was read at, and served only while the stamp is still the same.
//
// - SQLite: the connection's count of its own writes and the file's data_version (another
//   process's commit); no stamp while a transaction is open on the connection.
// - PostgreSQL: this process's committed writes (ObservedDialect) and the notifications every
//   table's statement trigger sends on commit (migration 0031), heard on a LISTEN connection of
//   its own; no stamp while that connection is down, since a change could then go unheard.

import { sql } from 'kysely';
import type { DatabaseConfig } from '../config.js';
import type { Db } from './database.js';
import { type ChannelListener, channelName, listenToChannel } from './listen.js';

export interface DataChanges {
  /** Differs after any change to the data; undefined while a change could go unseen (cache nothing then). */
  stamp(): string | undefined;
  start(log?: { warn(object: object, message: string): void }): void;
  stop(): Promise<void>;
}

/** The channel the triggers of a schema notify; migration 0031 computes the same name in SQL. */
export const dataChannel = (schema: string): string => channelName('wealth_data', schema);

/** SQLite: the database's own stamp, nothing to listen to. */
class SqliteDataChanges implements DataChanges {
  constructor(private readonly db: Db) {}

  stamp(): string | undefined {
    return this.db.writeStamp();
  }

  start(): void {}

  async stop(): Promise<void> {}
}

/** PostgreSQL: trusted only while listening to the schema's channel. */
export class PostgresDataChanges implements DataChanges {
  private heard = 0;
  /** Moves on whenever listening starts or stops: what was stamped before cannot be trusted after. */
  private epoch = 0;
  private listening = false;
  private listener?: ChannelListener;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly connect: (channel: string, handlers: Parameters<typeof listenToChannel>[2]) => ChannelListener,
  ) {}

  stamp(): string | undefined {
    if (!this.listening) return undefined;
    const own = this.db.writeStamp();
    return own === undefined ? undefined : `${this.epoch}:${this.heard}:${own}`;
  }

  start(log?: { warn(object: object, message: string): void }): void {
    if (this.listener || this.stopped) return;
    void this.channel().then(
      (channel) => {
        if (this.stopped) return;
        this.listener = this.connect(channel, {
          message: () => void this.heard++,
          up: () => {
            this.epoch++;
            this.listening = true;
          },
          down: (error) => {
            if (error && this.listening) log?.warn({ err: error.message }, 'data change channel lost: nothing is served from the response cache until it is back');
            this.listening = false;
            this.epoch++;
          },
        });
      },
      (error: Error) => log?.warn({ err: error.message }, 'data change channel not started: the response cache stays off'),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    const listener = this.listener;
    this.listener = undefined;
    await listener?.close();
  }

  private async channel(): Promise<string> {
    if (this.db.schema) return dataChannel(this.db.schema);
    const { rows } = await sql<{ name: string }>`select current_schema() as name`.execute(this.db.kysely);
    return dataChannel(rows[0]!.name);
  }
}

export function dataChangesFor(db: Db, config: DatabaseConfig, retryMs?: number): DataChanges {
  if (config.dialect === 'postgres') return new PostgresDataChanges(db, (channel, handlers) => listenToChannel(config.url, channel, handlers, retryMs));
  return new SqliteDataChanges(db);
}
