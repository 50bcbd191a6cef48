import { randomUUID } from 'node:crypto';
import type { DatabaseConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { type ChannelListener, channelName, listenToChannel } from '../db/listen.js';
import { decodeSubject, encodeSubject, type RevokedSubject, TokenCache } from './token-cache.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's token cache and revocation channel (src/app.ts). */
    revocations: Revocations;
  }
}

/** How long a revoking write waits for the other processes to acknowledge its notification. */
const ECHO_WAIT_MS = 1000;

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
  /** Revocations of this process waiting for every listener's acknowledgement, by nonce. */
  private readonly waiting = new Map<string, Waiting>();
  /** Nonces this process announced (a rolled back write's stay: bounded in `announce`). */
  private readonly announcedHere = new Set<string>();
  /** Acknowledgements that came before `committed` began to wait for them, by nonce. */
  private readonly early = new Map<string, number>();
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
    const nonce = randomUUID();
    if (this.channel) {
      if (this.announcedHere.size > 10_000) this.announcedHere.clear();
      if (this.early.size > 10_000) this.early.clear();
      this.announcedHere.add(nonce);
    }
    return { subject, nonce, payload: encodeSubject(subject, nonce) };
  }

  /**
   * The write committed: what a request of this process may have looked up meanwhile is forgotten
   * again, and (PostgreSQL) the process waits until every process listening on the channel,
   * itself included, has said it heard the revocation (each answers with an acknowledgement
   * once its cache forgot), so that the next request anywhere is refused. A process that does
   * not answer within ECHO_WAIT_MS (it died, or its channel is down and its cache does not answer
   * anyway) is not waited for longer.
   */
  async committed(announced: readonly Announced[]): Promise<void> {
    for (const { subject } of announced) this.cache.forget(subject);
    if (!this.channel || !this.listener || announced.length === 0) return;
    const listeners = await this.listener.listeners();
    if (!listeners) return;
    await Promise.all(announced.map(({ nonce }) => this.acknowledged(nonce, listeners)));
    for (const { nonce } of announced) this.announcedHere.delete(nonce);
  }

  private acknowledged(nonce: string, listeners: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const wait: Waiting = { missing: listeners - (this.early.get(nonce) ?? 0), done: resolve };
      this.early.delete(nonce);
      if (wait.missing <= 0) return resolve();
      const timer = setTimeout(() => {
        this.waiting.delete(nonce);
        resolve();
      }, ECHO_WAIT_MS);
      wait.done = () => {
        clearTimeout(timer);
        this.waiting.delete(nonce);
        resolve();
      };
      this.waiting.set(nonce, wait);
    });
  }

  private heard(payload: string): void {
    const ack = acknowledgementOf(payload);
    if (ack !== undefined) {
      const wait = this.waiting.get(ack);
      if (wait) {
        if (--wait.missing <= 0) wait.done();
      } else if (this.announcedHere.has(ack)) this.early.set(ack, (this.early.get(ack) ?? 0) + 1);
      return;
    }
    const heard = decodeSubject(payload);
    if (!heard) return;
    this.cache.forget(heard.subject);
    if (heard.nonce) void this.listener?.send(JSON.stringify({ ack: heard.nonce }));
  }
}

interface Waiting {
  missing: number;
  done: () => void;
}

function acknowledgementOf(payload: string): string | undefined {
  if (!payload.startsWith('{"ack":')) return undefined;
  try {
    const value = JSON.parse(payload) as { ack?: unknown };
    return typeof value.ack === 'string' ? value.ack : undefined;
  } catch {
    return undefined;
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
