// Who holds a token, remembered per process so that a request costs no query, and forgotten at
// once when anything takes the token away: the token itself, its session chain (rebalancer tokens
// derived from a session carry its chain), its user (deactivation, a new password) or its
// partner app. Every write that takes access away goes through AuthRepository's one revocation
// path, which forgets here and (PostgreSQL) notifies every other process in the same transaction.
// The cache answers only while it can trust that it hears of every revocation: on PostgreSQL while
// its LISTEN connection is up (otherwise each request queries, as without a cache); on SQLite
// while no other process has written the database file (its data_version says so).

import type { Principal } from './principal.js';

/** What a revocation takes away: every cached token it may concern is forgotten. */
export type RevokedSubject = { token: number } | { chain: string } | { user: number } | { app: number } | { all: true };

export interface CachedToken {
  principal: Principal;
  tokenId: number;
  chainId: string | null;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/** More tokens than this live at once in one process are looked up again rather than kept. */
const DEFAULT_CAPACITY = 50_000;

export class TokenCache {
  private readonly entries = new Map<string, CachedToken>();
  /** Moves on with every revocation: a lookup that began before one must not store its answer. */
  private generation = 0;
  private trusted: boolean;

  constructor(
    /** Whether the cache starts trusted (SQLite) or waits to be told it hears revocations (PostgreSQL). */
    options: { trusted: boolean; capacity?: number; foreignWrites?: () => boolean },
  ) {
    this.trusted = options.trusted;
    this.capacity = options.capacity ?? DEFAULT_CAPACITY;
    this.foreignWrites = options.foreignWrites;
  }

  private readonly capacity: number;
  /** True when another process wrote the database since the last call (SQLite): nothing cached may be trusted. */
  private readonly foreignWrites?: () => boolean;

  /** Whether cached answers are given now (the channel is up). */
  get answering(): boolean {
    return this.trusted;
  }

  /** A ticket for `store`: taken before the query whose answer is to be stored. */
  ticket(): number {
    return this.generation;
  }

  get(key: string, now: number): CachedToken | undefined {
    if (!this.trusted) return undefined;
    if (this.foreignWrites?.()) {
      this.forget({ all: true });
      return undefined;
    }
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Keeps a looked-up token, unless a revocation came (or trust was lost) since `ticket`. */
  store(key: string, entry: CachedToken, ticket: number): void {
    if (!this.trusted || ticket !== this.generation) return;
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, entry);
  }

  /** Forgets every token the revocation concerns. */
  forget(subject: RevokedSubject): void {
    this.generation++;
    if ('all' in subject) {
      this.entries.clear();
      return;
    }
    for (const [key, entry] of this.entries) if (concerns(subject, entry)) this.entries.delete(key);
  }

  /** The channel is up: revocations from now on are heard. What was missed meanwhile is forgotten. */
  trust(): void {
    this.forget({ all: true });
    this.trusted = true;
  }

  /** The channel is down: revocations may be missed, so every request queries until it is back. */
  distrust(): void {
    this.trusted = false;
    this.forget({ all: true });
  }
}

function concerns(subject: Exclude<RevokedSubject, { all: true }>, entry: CachedToken): boolean {
  if ('token' in subject) return entry.tokenId === subject.token;
  if ('chain' in subject) return entry.chainId === subject.chain;
  if ('user' in subject) return entry.principal.userId === subject.user;
  return entry.principal.clientId === subject.app;
}

/** A revocation as it travels between processes. */
export const encodeSubject = (subject: RevokedSubject, nonce: string): string => JSON.stringify({ ...subject, nonce });

export function decodeSubject(payload: string): { subject: RevokedSubject; nonce?: string } | undefined {
  try {
    const value = JSON.parse(payload) as Record<string, unknown>;
    const nonce = typeof value.nonce === 'string' ? value.nonce : undefined;
    if (value.all === true) return { subject: { all: true }, nonce };
    if (typeof value.token === 'number') return { subject: { token: value.token }, nonce };
    if (typeof value.chain === 'string') return { subject: { chain: value.chain }, nonce };
    if (typeof value.user === 'number') return { subject: { user: value.user }, nonce };
    if (typeof value.app === 'number') return { subject: { app: value.app }, nonce };
  } catch {
    // Not ours to read: anything unreadable on the channel is taken as "forget everything".
  }
  return { subject: { all: true } };
}
