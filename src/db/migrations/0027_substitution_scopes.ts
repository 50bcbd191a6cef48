import { type Migration, sql } from 'kysely';
import type { AnyDb } from './helpers.js';

/**
 * One substitute per product and scope, held by the database so that two concurrent writers
 * cannot both add one. The firm's scope is the rows without an account: a unique index over a
 * nullable `account_id` treats every null as distinct, so each scope has its own partial index.
 * Rows written by hand before the rule existed may repeat a scope; the engine applied whichever
 * it read last, so the oldest row (lowest id) is kept and the others go. A product that
 * substitutes itself changes nothing in a rebalance and is removed as well.
 */
export const substitutionScopes: Migration = {
  async up(db: AnyDb) {
    await sql`delete from product_substitutions where product_id = substitute_product_id`.execute(db);
    await sql`
      delete from product_substitutions
      where exists (
        select 1 from product_substitutions older
        where older.firm_id = product_substitutions.firm_id
          and older.product_id = product_substitutions.product_id
          and (older.account_id = product_substitutions.account_id or (older.account_id is null and product_substitutions.account_id is null))
          and older.id < product_substitutions.id
      )`.execute(db);
    await db.schema
      .createIndex('product_substitutions_firm_scope_uq')
      .on('product_substitutions')
      .columns(['firm_id', 'product_id'])
      .unique()
      .where(sql.ref('account_id'), 'is', null)
      .execute();
    await db.schema
      .createIndex('product_substitutions_account_scope_uq')
      .on('product_substitutions')
      .columns(['account_id', 'product_id'])
      .unique()
      .where(sql.ref('account_id'), 'is not', null)
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex('product_substitutions_account_scope_uq').execute();
    await db.schema.dropIndex('product_substitutions_firm_scope_uq').execute();
  },
};
