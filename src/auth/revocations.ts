import { randomUUID } from 'node:crypto';
import type { DatabaseConfig } from '../config.js';
import { ACKNOWLEDGEMENT_WAIT_MS, Acknowledgements, acknowledgement, within } from '../db/acknowledgements.js';
import type { Db } from '../db/database.js';
import { type ChannelListener, channelName, listenToChannel } from '../db/listen.js';
import { decodeSubject, encodeSubject, type RevokedSubject, TokenCache } from './token-cache.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's token cache and revocation channel (src/app.ts). */
    revocations: Revocations;
  }
}

/** One revocation of a write, as AuthRepository announces it. */
export interface Announced {
  subject: RevokedSubject;
  /** The channel payload, sent in the write's transaction (PostgreSQL). */
  payload: string;
  nonce: string;
}

/**
 * A process's side of revocations: its token cache, and (PostgreSQL) the channel every process
 * announces its revocations on and hears everyone's. AuthRepository is the one writer that calls
 * `announce` (in the transaction of the write) and `committed` (after it).
 */
export class Revocations {
  /** Every listener's acknowledgement of this process's revocations. */
  private readonly acks = new Acknowledgements();
  private listener?: ChannelListener;

  constructor(
    readonly cache: TokenCache,
    /** The PostgreSQL channel; none on SQLite, where one process holds the database open for serving. */
    readonly channel?: string,
    private readonly connect?: (handlers: Parameters<typeof listenToChannel>[2]) => ChannelListener,
  ) {}

  /** SQLite: trusted from the start, and forgets everything whenever another process wrote the file. */
  static sqlite(foreignWrites?: () => boolean): Revocations {
    return new Revocations(new TokenCache({ trusted: true, foreignWrites }));
  }

  /** PostgreSQL: trusted only while listening on the schema's channel. */
  static postgres(url: string, schema: string | undefined, retryMs?: number): Revocations {
    const channel = channelName('wealth_token_revocations', schema);
    return new Revocations(new TokenCache({ trusted: false }), channel, (handlers) => listenToChannel(url, channel, handlers, retryMs));
  }

  start(log?: { warn(object: object, message: string): void }): void {
    if (!this.connect || this.listener) return;
    this.listener = this.connect({
      message: (payload) => this.heard(payload),
      up: () => this.cache.trust(),
      down: (error) => {
        // Once per loss, not once per attempt to reconnect.
        if (error && this.cache.answering) log?.warn({ err: error.message }, 'token revocation channel lost: tokens are looked up on every request until it is back');
        this.cache.distrust();
      },
    });
  }

  async stop(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    await listener?.close();
  }

  /** A revocation about to be written: forgotten here now, its payload for the transaction. */
  announce(subject: RevokedSubject): Announced {
    this.cache.forget(subject);
    const nonce = this.channel ? this.acks.announce() : randomUUID();
    return { subject, nonce, payload: encodeSubject(subject, nonce) };
  }

  /**
   * The write committed: what a request of this process may have looked up meanwhile is forgotten
   * again, and (PostgreSQL) the process waits until every process listening on the channel,
   * itself included, has said it heard the revocation (each answers with an acknowledgement
   * once its cache forgot), so that the next request anywhere is refused. A process that does
   * not answer in time (src/db/acknowledgements.ts) is not waited for longer.
   */
  async committed(announced: readonly Announced[]): Promise<void> {
    for (const { subject } of announced) this.cache.forget(subject);
    const listener = this.listener;
    if (!this.channel || !listener || announced.length === 0) return;
    // Bounded as a whole: a listening connection that hangs must not hold the revoking call.
    await within(
      2 * ACKNOWLEDGEMENT_WAIT_MS,
      (async () => {
        const listeners = await listener.listeners();
        if (listeners) await Promise.all(announced.map(({ nonce }) => this.acks.wait(nonce, listeners)));
      })(),
    );
  }

  private heard(payload: string): void {
    if (this.acks.heard(payload)) return;
    const heard = decodeSubject(payload);
    if (!heard) return;
    this.cache.forget(heard.subject);
    if (heard.nonce) void this.listener?.send(acknowledgement(heard.nonce));
  }
}

/** The revocations of a process serving (or administering) `db`. */
export function revocationsFor(db: Db, config: DatabaseConfig): Revocations {
  if (config.dialect === 'postgres') return Revocations.postgres(config.url, db.schema);
  const version = db.dataVersion;
  if (!version) return Revocations.sqlite();
  let seen = version();
  return Revocations.sqlite(() => {
    const now = version();
    const changed = now !== seen;
    seen = now;
    return changed;
  });
}
