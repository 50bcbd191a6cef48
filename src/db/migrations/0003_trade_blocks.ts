import type { Migration } from 'kysely';
import { type AnyDb, firmTable, index, withAudit, dropTables } from './helpers.js';

/**
 * Trade blocks (spec 4.2): reasons, details and their history on the platform; the generic
 * transactional outbox; and the rebalancing application's synced copy of the details.
 */
export const tradeBlocks: Migration = {
  async up(db: AnyDb) {
    await withAudit(
      firmTable(db, 'trade_block_reasons')
        .addColumn('global_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('is_system_maintained', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('allow_detail_assignment', 'integer', (c) => c.notNull().defaultTo(1)),
    ).execute();
    // The unique name makes the lazy, concurrent creation of the system reasons idempotent.
    await index(db, 'trade_block_reasons', ['firm_id', 'name'], true);
    await index(db, 'trade_block_reasons', ['firm_id', 'global_id'], true);

    await withAudit(
      firmTable(db, 'trade_block_details')
        .addColumn('global_id', 'text', (c) => c.notNull())
        .addColumn('entity_enum', 'integer', (c) => c.notNull())
        .addColumn('entity_id', 'integer', (c) => c.notNull())
        .addColumn('reason_id', 'integer', (c) => c.notNull().references('trade_block_reasons.id'))
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('start_date', 'text', (c) => c.notNull())
        .addColumn('end_date', 'text')
        .addColumn('is_deleted', 'integer', (c) => c.notNull().defaultTo(0))
        // Bumped on every change; sync events carry it so the copy never goes backwards.
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)),
    ).execute();
    await index(db, 'trade_block_details', ['firm_id', 'global_id'], true);
    await index(db, 'trade_block_details', ['firm_id', 'entity_enum', 'entity_id']);
    await index(db, 'trade_block_details', ['reason_id']);

    await firmTable(db, 'trade_block_history')
      .addColumn('detail_id', 'integer', (c) => c.notNull().references('trade_block_details.id'))
      .addColumn('global_id', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('snapshot', 'text', (c) => c.notNull())
      .addColumn('changed_by', 'text', (c) => c.notNull())
      .addColumn('changed_at', 'text', (c) => c.notNull())
      .execute();
    await index(db, 'trade_block_history', ['detail_id']);

    await firmTable(db, 'outbox')
      .addColumn('topic', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('delivered_at', 'text')
      .addColumn('last_error', 'text')
      .execute();
    await index(db, 'outbox', ['delivered_at', 'next_attempt_at']);

    await withAudit(
      firmTable(db, 'rebalancer_trade_block_details')
        .addColumn('global_id', 'text', (c) => c.notNull())
        .addColumn('related_type', 'integer', (c) => c.notNull())
        .addColumn('related_type_id', 'integer', (c) => c.notNull())
        .addColumn('reason_id', 'integer', (c) => c.notNull())
        .addColumn('reason_name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('start_date', 'text', (c) => c.notNull())
        .addColumn('end_date', 'text')
        .addColumn('is_deleted', 'integer', (c) => c.notNull().defaultTo(0))
        // The platform version last applied; 0 for details created through the v2 interface.
        .addColumn('source_version', 'integer', (c) => c.notNull().defaultTo(0)),
    ).execute();
    await index(db, 'rebalancer_trade_block_details', ['firm_id', 'global_id'], true);
    await index(db, 'rebalancer_trade_block_details', ['firm_id', 'related_type', 'related_type_id']);

    // One row per delivered sync event: the proof of exactly-once application.
    await firmTable(db, 'rebalancer_sync_log')
      .addColumn('event_id', 'integer', (c) => c.notNull())
      .addColumn('global_id', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('applied_at', 'text', (c) => c.notNull())
      .execute();
    await index(db, 'rebalancer_sync_log', ['event_id'], true);
    await index(db, 'rebalancer_sync_log', ['firm_id', 'global_id']);
  },
  async down(db: AnyDb) {
    await dropTables(db, ['outbox', 'rebalancer_sync_log', 'rebalancer_trade_block_details', 'trade_block_details', 'trade_block_history', 'trade_block_reasons']);
  },
};
