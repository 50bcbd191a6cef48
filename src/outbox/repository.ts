import type { Kysely } from 'kysely';
import { locksRows } from '../db/dialect.js';
import type { Database } from '../db/schema.js';

export interface OutboxMessage {
  firmId: number;
  topic: string;
  payload: unknown;
}

export interface ClaimedMessage {
  id: number;
  firmId: number;
  topic: string;
  payload: unknown;
  /** Attempts including this one. */
  attempts: number;
}

/** Postgres caps a statement at 65,535 parameters; 500 rows of 7 columns stay well below. */
const CHUNK = 500;

/**
 * The outbox table. `enqueue` takes the caller's transaction so that an event row commits or
 * rolls back with the change it describes.
 */
export class OutboxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  static async enqueue(trx: Kysely<Database>, messages: OutboxMessage[], now: string) {
    for (let i = 0; i < messages.length; i += CHUNK) {
      await trx
        .insertInto('outbox')
        .values(
          messages.slice(i, i + CHUNK).map((m) => ({
            firm_id: m.firmId,
            topic: m.topic,
            payload: JSON.stringify(m.payload),
            created_at: now,
            attempts: 0,
            next_attempt_at: now,
          })),
        )
        .execute();
    }
  }

  /**
   * Takes up to `limit` due rows and leases them until `leaseUntil`: a node that dies before
   * marking them delivered leaves them to be claimed again once the lease runs out. PostgreSQL
   * skips rows another node holds, so several nodes can dispatch at once.
   */
  async claim(now: string, leaseUntil: string, limit: number, topics: string[]): Promise<ClaimedMessage[]> {
    return this.db.transaction().execute(async (trx) => {
      let due = trx
        .selectFrom('outbox')
        .select('id')
        .where('delivered_at', 'is', null)
        .where('next_attempt_at', '<=', now)
        .where('topic', 'in', topics)
        .orderBy('id')
        .limit(limit);
      if (locksRows(this.db)) due = due.forUpdate().skipLocked();
      const ids = (await due.execute()).map((r) => r.id);
      if (ids.length === 0) return [];
      const rows = await trx
        .updateTable('outbox')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: leaseUntil }))
        .where('id', 'in', ids)
        .returning(['id', 'firm_id', 'topic', 'payload', 'attempts'])
        .execute();
      return rows
        .sort((a, b) => a.id - b.id)
        .map((r) => ({ id: r.id, firmId: r.firm_id, topic: r.topic, payload: JSON.parse(r.payload) as unknown, attempts: r.attempts }));
    });
  }

  async delivered(id: number, at: string) {
    await this.db.updateTable('outbox').set({ delivered_at: at, last_error: null }).where('id', '=', id).execute();
  }

  async failed(id: number, nextAttemptAt: string, error: string) {
    await this.db
      .updateTable('outbox')
      .set({ next_attempt_at: nextAttemptAt, last_error: error.slice(0, 2000) })
      .where('id', '=', id)
      .execute();
  }

  async pending(topic?: string): Promise<number> {
    let query = this.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('delivered_at', 'is', null);
    if (topic) query = query.where('topic', '=', topic);
    return Number((await query.executeTakeFirstOrThrow()).n);
  }
}
