import { type Migration, sql } from 'kysely';
import { type AnyDb, index, isPostgres } from './helpers.js';

/**
 * Reads that must not cost the size of a request, of the batch history or of the firm:
 * - `lot_selection`: the lot method a tax-aware run planned its sells by (null when it was not
 *   tax-aware), which recording an execution relieves lots by, so that recording a trade does not
 *   parse the stored request, whose keys are every account of the run.
 * - `batches (trade_instance_id)`: instance pages and records join their batch by it; without the
 *   index each read walks (or indexes on the fly) every batch of every firm.
 * - `accounts (model_id, firm_id)` instead of `(model_id)`: counting the accounts on a model (an
 *   aggregate model's list, read on every page) checks their firm from the index alone, instead of
 *   reading every account row.
 * - `account_transactions (firm_id, trade_date, id)`: the firm's transactions newest first, a page
 *   read from the index in that order instead of sorting every transaction of the firm for each
 *   page.
 */
export const boundedLookups: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('trade_instances').addColumn('lot_selection', 'text').execute();
    const fill = isPostgres(db)
      ? sql`update trade_instances set lot_selection = coalesce(request::jsonb -> 'taxOptions' ->> 'lotSelection', 'MinTax') where jsonb_typeof(request::jsonb -> 'taxOptions') = 'object'`
      : sql`update trade_instances set lot_selection = coalesce(json_extract(request, '$.taxOptions.lotSelection'), 'MinTax') where json_type(request, '$.taxOptions') = 'object'`;
    await fill.execute(db);
    await index(db, 'batches', ['trade_instance_id']);
    await index(db, 'accounts', ['model_id', 'firm_id']);
    await db.schema.dropIndex('accounts_model_id_ix').execute();
    await index(db, 'account_transactions', ['firm_id', 'trade_date', 'id']);
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex('account_transactions_firm_id_trade_date_id_ix').execute();
    await index(db, 'accounts', ['model_id']);
    await db.schema.dropIndex('accounts_model_id_firm_id_ix').execute();
    await db.schema.dropIndex('batches_trade_instance_id_ix').execute();
    await db.schema.alterTable('trade_instances').dropColumn('lot_selection').execute();
  },
};
