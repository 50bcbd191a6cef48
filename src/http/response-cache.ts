// The answers of a few hot reads, kept per caller and served again while nothing in the database
// has changed since they were read (docs/decisions/response-cache.md). Exact, not timed: an answer
// is stored under the data stamp taken before its reads, only when the stamp is still the same
// after them, and the whole cache is dropped the moment the stamp moves (any write of this
// process at once; another process's commit as soon as its notification arrives). While changes
// could go unseen (the notification connection down, a transaction open on SQLite) nothing is
// stored or served. Authentication and privilege checks run before it, on every request.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DataChanges } from '../db/data-changes.js';
import { type Clock, today } from '../shared/clock.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether the data changed since a stamp (src/db/data-changes.ts): tests wait on it. */
    dataChanges: DataChanges;
  }
  interface FastifyContextConfig {
    /**
     * A GET whose answer depends only on the caller, the URL, the day and the database: it may be
     * answered from the response cache.
     */
    cacheable?: boolean;
  }
  interface FastifyRequest {
    /** The cache key and data stamp of a cacheable read being answered from the database. */
    cacheTicket: CacheTicket | null;
  }
}

interface CacheTicket {
  key: string;
  stamp: string;
}

interface CachedAnswer {
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** An answer bigger than this is not kept: it would push out many smaller ones. */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

/** Headers that belong to one response, not to the answer. */
const PER_RESPONSE = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

/** Answers by key, at most `maxBytes` of them, all of one data stamp; the oldest go first. */
export class AnswerStore {
  private readonly answers = new Map<string, CachedAnswer>();
  private bytes = 0;
  private stamp: string | undefined;

  constructor(private readonly maxBytes: number) {}

  get size(): number {
    return this.answers.size;
  }

  get(key: string, stamp: string): CachedAnswer | undefined {
    this.at(stamp);
    return this.answers.get(key);
  }

  set(key: string, stamp: string, answer: CachedAnswer): void {
    this.at(stamp);
    const cost = answer.body.length + key.length;
    if (cost > MAX_ANSWER_BYTES || cost > this.maxBytes) return;
    this.delete(key);
    while (this.bytes + cost > this.maxBytes) this.delete(this.answers.keys().next().value as string);
    this.answers.set(key, answer);
    this.bytes += cost;
  }

  /** Everything kept under another stamp is stale. */
  private at(stamp: string): void {
    if (stamp === this.stamp) return;
    this.stamp = stamp;
    this.answers.clear();
    this.bytes = 0;
  }

  private delete(key: string): void {
    const answer = this.answers.get(key);
    if (!answer) return;
    this.answers.delete(key);
    this.bytes -= answer.body.length + key.length;
  }
}

/** Serves the app's `cacheable` routes from a cache of at most `maxBytes` (0: no cache). */
export function cacheResponses(app: FastifyInstance, changes: DataChanges, clock: Clock, maxBytes: number): void {
  app.decorate('dataChanges', changes);
  app.decorateRequest('cacheTicket', null);
  if (maxBytes <= 0) return;
  const store = new AnswerStore(maxBytes);

  // After authentication and the privilege check (onRequest): only a caller who may read the
  // route gets here, and the key names the caller. Before the URL's checks and validation: an
  // answer is kept only for a URL that passed them (its answer was a 200), and the same URL passes
  // them again, so a hit skips them; a miss goes on through them.
  // Callback style: a hit is sent in the same tick (reply.send without done ends the request).
  app.addHook('preValidation', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (!request.routeOptions.config.cacheable || request.method !== 'GET' || !request.principal) return done();
    const stamp = changes.stamp();
    if (stamp === undefined) return done();
    const { userId, clientId } = request.principal;
    // The day: answers may say what is in force today (a trade block's dates).
    const key = `${userId} ${clientId ?? ''} ${today(clock)} ${request.url}`;
    const answer = store.get(key, stamp);
    if (!answer) {
      request.cacheTicket = { key, stamp };
      return done();
    }
    for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
    reply.send(answer.body);
  });

  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
    done(null, kept(request, reply, payload));
  });

  /** The payload to send: the answer just read, kept when its stamp held (as a Buffer then). */
  function kept(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
    const ticket = request.cacheTicket;
    if (!ticket || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    // A write began or committed meanwhile: what was read may be older than the stamp says.
    if (changes.stamp() !== ticket.stamp) return payload;
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value === undefined || PER_RESPONSE.has(name)) continue;
      if (name === 'set-cookie') return payload;
      headers[name] = typeof value === 'number' ? String(value) : value;
    }
    const body = Buffer.from(payload);
    store.set(ticket.key, ticket.stamp, { headers, body });
    return body;
  }
}
