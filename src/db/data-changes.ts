// Whether anything in the database may have changed since a moment, asked without a query: what
// a process caches from the database (the response cache, src/http/response-cache.ts) is kept
// only under the stamp it was read at, and served only while the stamp is still the same.
//
// - SQLite: the connection's count of its own writes and the file's data_version (another
//   process's commit); no stamp while a transaction is open on the connection.
// - PostgreSQL: this process's committed writes (ObservedDialect) and the notifications every
//   table's statement trigger sends on commit (migration 0031), heard on a LISTEN connection of
//   its own; no stamp while that connection is down, since a change could then go unheard.
//   After a write of its own, or before telling of another process's, a process can wait
//   (`heardEverywhere`) until every process listening has heard it: a barrier notification sent
//   after the write committed reaches each listener after the write's own (PostgreSQL delivers
//   notifications in commit order), and each answers it.

import { sql } from 'kysely';
import type { DatabaseConfig } from '../config.js';
import { ACKNOWLEDGEMENT_WAIT_MS, Acknowledgements, acknowledgement, nonceOf, within } from './acknowledgements.js';
import type { Db } from './database.js';
import { type ChannelListener, channelName, listenToChannel } from './listen.js';

export interface DataChanges {
  /** Differs after any change to the data; undefined while a change could go unseen (cache nothing then). */
  stamp(): string | undefined;
  /** Moves on when this process writes in a way other processes hear of only later (PostgreSQL). */
  writeMark(): string | undefined;
  /**
   * Resolves once every process listening has heard of every write this process committed
   * before the call (or has not answered in time: src/db/acknowledgements.ts). With `othersToo`,
   * of every write any process committed before it, this one included. Never rejects.
   */
  heardEverywhere(othersToo?: boolean): Promise<void>;
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

  /** Another process reads the file's data_version on its next request: nothing to wait for. */
  writeMark(): undefined {
    return undefined;
  }

  async heardEverywhere(): Promise<void> {}

  start(): void {}

  async stop(): Promise<void> {}
}

/**
 * PostgreSQL: trusted only while listening to the schema's channel.
 *
 * Besides the triggers' notifications the channel carries three messages of the processes
 * themselves, each named by a nonce (src/db/acknowledgements.ts):
 * - `hello`: a process that starts listening says so, and keeps nothing in its cache until every
 *   process listening has answered. Whoever answers counts the listeners again before its next
 *   barrier, so a process that may hold an answer is never left out of one.
 * - `barrier`: sent after a write of this process committed (or before an answer tells of another
 *   process's); PostgreSQL delivers notifications in commit order, so a process answering it has
 *   counted the notifications of every commit before it already.
 * - `ack`: the answer to either.
 */
export class PostgresDataChanges implements DataChanges {
  private heard = 0;
  /** Moves on whenever listening starts or stops: what was stamped before cannot be trusted after. */
  private epoch = 0;
  private listening = false;
  private listener?: ChannelListener;
  private stopped = false;
  private readonly acks = new Acknowledgements();
  /** How many processes listen, as last counted; undefined when a hello (or a silence) says count again. */
  private members: number | undefined;
  /** Moves on with every hello heard: a count begun before it may miss the newcomer. */
  private hellos = 0;
  /** Callers of `heardEverywhere` for the next barrier, and whether barriers are being run. */
  private waiters: { resolve: () => void; othersToo: boolean }[] = [];
  private barriers = false;

  constructor(
    private readonly db: Db,
    private readonly connect: (channel: string, handlers: Parameters<typeof listenToChannel>[2]) => ChannelListener,
  ) {}

  stamp(): string | undefined {
    if (!this.listening) return undefined;
    const own = this.db.writeStamp();
    return own === undefined ? undefined : `${this.epoch}:${this.heard}:${own}`;
  }

  writeMark(): string | undefined {
    return this.db.writeStamp();
  }

  heardEverywhere(othersToo = false): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiters.push({ resolve, othersToo });
      if (!this.barriers) void this.runBarriers();
    });
  }

  /**
   * One barrier at a time, each for every caller that came before it began: under many writes
   * the listening connection carries one barrier's round trips, not one per write.
   */
  private async runBarriers(): Promise<void> {
    this.barriers = true;
    while (this.waiters.length > 0) {
      const served = this.waiters;
      this.waiters = [];
      // Bounded as a whole: a listening connection that hangs (not yet known lost) must not
      // hold a write's answer for longer than a silent listener would.
      await within(2 * ACKNOWLEDGEMENT_WAIT_MS, this.barrier(served.some((waiter) => waiter.othersToo)));
      for (const { resolve } of served) resolve();
    }
    this.barriers = false;
  }

  private async barrier(othersToo: boolean): Promise<void> {
    const listener = this.listener;
    // Not listening: this process can neither send a barrier nor hear the answers.
    if (!listener || !this.listening) return;
    const members = this.members ?? (await this.count(listener));
    if (members === undefined) return;
    // This process alone reads its own writes at once (its write count is in its stamp), but
    // hears another process's only with the notification: then its own answer is waited for too.
    if (members <= 1 && !othersToo) return;
    if ((await this.everyoneAnswers(listener, 'barrier', Math.max(members, 1))) !== true) this.members = undefined;
  }

  /**
   * Sends a message of a new nonce and waits for `listeners` answers: whether they all came in
   * time, or undefined when it could not be sent.
   */
  private async everyoneAnswers(listener: ChannelListener, kind: 'hello' | 'barrier', listeners: number): Promise<boolean | undefined> {
    const nonce = this.acks.announce();
    const answered = this.acks.wait(nonce, listeners);
    return (await listener.send(JSON.stringify({ [kind]: nonce }))) ? await answered : undefined;
  }

  private async count(listener: ChannelListener): Promise<number | undefined> {
    const hellos = this.hellos;
    const counted = await listener.listeners();
    if (hellos === this.hellos) this.members = counted;
    return counted;
  }

  /**
   * Listening (again): the process serves nothing from its cache until every listener knows of it.
   * One that does not answer in time is not waited for; a hello that could not be sent is sent again.
   */
  private async join(listener: ChannelListener, epoch: number): Promise<void> {
    const current = () => listener === this.listener && epoch === this.epoch && !this.stopped;
    const listeners = await listener.listeners();
    const sent = listeners !== undefined && (await this.everyoneAnswers(listener, 'hello', listeners)) !== undefined;
    if (!current()) return;
    if (sent) this.listening = true;
    else setTimeout(() => current() && void this.join(listener, epoch), ACKNOWLEDGEMENT_WAIT_MS).unref();
  }

  private message(payload: string): void {
    if (this.acks.heard(payload)) return;
    const hello = nonceOf(payload, 'hello');
    const answer = hello ?? nonceOf(payload, 'barrier');
    if (hello !== undefined) {
      this.hellos++;
      this.members = undefined;
    }
    // Every notification before it has been counted: it is answered once they are.
    if (answer !== undefined) void this.listener?.send(acknowledgement(answer));
    else this.heard++;
  }

  start(log?: { warn(object: object, message: string): void }): void {
    if (this.listener || this.stopped) return;
    void this.channel().then(
      (channel) => {
        if (this.stopped) return;
        const listener = this.connect(channel, {
          message: (payload) => this.message(payload),
          up: () => void this.join(listener, ++this.epoch),
          down: (error) => {
            if (error && this.listening) log?.warn({ err: error.message }, 'data change channel lost: nothing is served from the response cache until it is back');
            this.listening = false;
            this.members = undefined;
            this.epoch++;
          },
        });
        this.listener = listener;
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
