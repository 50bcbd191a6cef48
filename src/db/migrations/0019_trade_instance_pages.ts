import { type Migration, sql } from 'kysely';
import { type AnyDb, isPostgres } from './helpers.js';

/**
 * A trade instance of a large rebalance holds a million trades (100,000 accounts), so neither its
 * record nor its trades may cost a read of all of them:
 * - `trade_count` is kept on the instance, added to in the transaction that writes its trades,
 *   instead of counting the instance's trades for every instance of every list page;
 * - its trades are read a page at a time in id order. On PostgreSQL the index on
 *   `trade_instance_id` alone leaves that order to a sort of the whole instance or to a walk of the
 *   primary key through every older trade; `(trade_instance_id, id)` reads a page from its first
 *   row and serves every lookup the old index served. SQLite's index on `trade_instance_id` already
 *   ends with the rowid, which is `id`.
 */
export const tradeInstancePages: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('trade_instances').addColumn('trade_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await sql`update trade_instances set trade_count = (select count(*) from trades where trades.trade_instance_id = trade_instances.id)`.execute(db);
    if (!isPostgres(db)) return;
    await sql`create index trades_trade_instance_id_id_ix on trades (trade_instance_id, id)`.execute(db);
    await sql`drop index trades_trade_instance_id_ix`.execute(db);
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('trade_instances').dropColumn('trade_count').execute();
    if (!isPostgres(db)) return;
    await sql`create index trades_trade_instance_id_ix on trades (trade_instance_id)`.execute(db);
    await sql`drop index trades_trade_instance_id_id_ix`.execute(db);
  },
};
