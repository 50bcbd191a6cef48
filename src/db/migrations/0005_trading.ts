import type { Migration } from 'kysely';
import { type AnyDb, firmTable, index, dropTables } from './helpers.js';

/** Rebalance batches, their chunks and messages; trade instances and their trades (open orders). */
export const trading: Migration = {
  async up(db: AnyDb) {
    await firmTable(db, 'trade_instances')
      .addColumn('routine', 'text', (c) => c.notNull())
      .addColumn('notes', 'text')
      .addColumn('request', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('cancelled_at', 'text')
      .addColumn('cancelled_by', 'text')
      .execute();

    // A trade is an open order until cancelled (or executed, which another system reports).
    await firmTable(db, 'trades')
      .addColumn('trade_instance_id', 'integer', (c) => c.notNull().references('trade_instances.id'))
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
      .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
      .addColumn('side', 'text', (c) => c.notNull())
      .addColumn('trade_type', 'text', (c) => c.notNull())
      .addColumn('shares_micros', 'bigint', (c) => c.notNull())
      .addColumn('amount_cents', 'bigint', (c) => c.notNull())
      .addColumn('price_micros', 'bigint', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await index(db, 'trades', ['trade_instance_id']);
    await index(db, 'trades', ['account_id', 'status']);

    await firmTable(db, 'batches')
      .addColumn('trade_instance_id', 'integer', (c) => c.notNull().references('trade_instances.id'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('total_items', 'integer', (c) => c.notNull())
      .addColumn('items_completed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('error_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('warning_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('chunks_total', 'integer', (c) => c.notNull())
      .addColumn('chunks_done', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_by_user_id', 'integer', (c) => c.notNull())
      .addColumn('completed_at', 'text')
      .execute();

    // The unit of work a queue hands out; `done_at` set in the same transaction as its trades
    // makes a retried chunk a no-op.
    await firmTable(db, 'batch_chunks')
      .addColumn('batch_id', 'integer', (c) => c.notNull().references('batches.id'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('keys', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('done_at', 'text')
      .execute();
    await index(db, 'batch_chunks', ['batch_id', 'seq'], true);

    await firmTable(db, 'batch_messages')
      .addColumn('batch_id', 'integer', (c) => c.notNull().references('batches.id'))
      .addColumn('account_id', 'integer')
      .addColumn('severity', 'text', (c) => c.notNull())
      .addColumn('code', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await index(db, 'batch_messages', ['batch_id']);
  },
  async down(db: AnyDb) {
    await dropTables(db, ['batch_chunks', 'batch_messages', 'batches', 'trade_instances', 'trades']);
  },
};
