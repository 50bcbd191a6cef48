import { type Migration, sql } from 'kysely';
import { type AnyDb, index, isPostgres } from './helpers.js';

/**
 * Reads of one trade instance that must not cost the size of its request or of the batch history:
 * - `lot_selection`: the lot method a tax-aware run planned its sells by (null when it was not
 *   tax-aware), which recording an execution relieves lots by. It was read from the stored request,
 *   whose keys are every account of the run: recording one trade of a 100,000-account rebalance
 *   parsed 0.7 MB of JSON.
 * - `batches (trade_instance_id)`: instance pages and records join their batch by it; without the
 *   index each read walks (or indexes on the fly) every batch of every firm.
 */
export const instanceLookups: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('trade_instances').addColumn('lot_selection', 'text').execute();
    const fill = isPostgres(db)
      ? sql`update trade_instances set lot_selection = coalesce(request::jsonb -> 'taxOptions' ->> 'lotSelection', 'MinTax') where jsonb_typeof(request::jsonb -> 'taxOptions') = 'object'`
      : sql`update trade_instances set lot_selection = coalesce(json_extract(request, '$.taxOptions.lotSelection'), 'MinTax') where json_type(request, '$.taxOptions') = 'object'`;
    await fill.execute(db);
    await index(db, 'batches', ['trade_instance_id']);
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex('batches_trade_instance_id_ix').execute();
    await db.schema.alterTable('trade_instances').dropColumn('lot_selection').execute();
  },
};
