import type { Migration } from 'kysely';
import { type AnyDb, index } from './helpers.js';

/**
 * Pages and chunk reads that cost the same at 1,000 or 1,000,000 accounts. List routes page
 * `where firm_id = ? order by id`: an index on (firm_id, id) serves the page straight from the
 * index, where the only firm index of accounts was (firm_id, restricted_plan_id) and every page
 * sorted the firm. The same index answers `firm_id = ? and id in (…)` on both columns, so the
 * rebalance read's plan no longer depends on statistics. Account-level substitutions are read by
 * account for a chunk; the firm index alone scanned every substitution of the firm per chunk.
 */
const FIRM_ID_TABLES = ['accounts', 'registrations', 'products', 'representatives', 'trade_instances'];

export const firmIdIndexes: Migration = {
  async up(db: AnyDb) {
    for (const table of FIRM_ID_TABLES) await index(db, table, ['firm_id', 'id']);
    await index(db, 'product_substitutions', ['account_id']);
  },
  async down(db: AnyDb) {
    for (const table of FIRM_ID_TABLES) await db.schema.dropIndex(`${table}_firm_id_id_ix`).execute();
    await db.schema.dropIndex('product_substitutions_account_id_ix').execute();
  },
};
