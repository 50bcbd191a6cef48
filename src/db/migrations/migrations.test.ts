import { Migrator, NO_MIGRATIONS } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, tablesOf } from '../../../test/support/databases.js';
import { type Db, migrateToLatest, retryBookkeeping } from '../database.js';
import { boundedLookups } from './0020_bounded_lookups.js';
import { substitutionScopes } from './0027_substitution_scopes.js';
import { migrationProvider } from './index.js';
import { createTestFirm } from '../../../test/support/firm.js';
import { createAccount, createProduct } from '../../../test/support/rebalancer.js';

/** Every migration can be undone: all the way down leaves no table, and up again restores them all. */
describeEachDatabase('migrations down and up', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
  });
  afterAll(async () => drop());

  const tables = async () =>
    (await tablesOf(db))
      .filter((t) => !t.name.startsWith('kysely_'))
      .map((t) => t.name)
      .sort();

  it('goes down to no table and back up to the same tables', async () => {
    const migrated = await tables();
    expect(migrated.length).toBeGreaterThan(50);
    const migrator = new Migrator({ db: db.kysely, provider: migrationProvider, migrationTableSchema: db.schema });
    const down = await retryBookkeeping(() => migrator.migrateTo(NO_MIGRATIONS));
    expect(down.error).toBeUndefined();
    expect(await tables()).toEqual([]);
    await migrateToLatest(db);
    expect(await tables()).toEqual(migrated);
  });

  it('0020 gives instances written before it the lot method of their request', async () => {
    const now = new Date().toISOString();
    const firm = await db.kysely
      .insertInto('firms')
      .values({ name: 'Lots firm', code: 'LOTS', multi_trade_block: 1, trade_block_dates: 1, trade_block_custom_types: 0, default_asset_values: 'PendingTransactionsAndOrders', created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await boundedLookups.down!(db.kysely);
    const requests = [{ taxOptions: { lotSelection: 'HIFO' } }, { taxOptions: {} }, { taxOptions: null }, { keys: [1, 2] }];
    const ids: number[] = [];
    for (const request of requests) {
      const row = await db.kysely
        .insertInto('trade_instances')
        .values({ firm_id: firm.id, routine: 'Rebalance', notes: null, request: JSON.stringify(request), status: 'Open', created_at: now, created_by: 'test' })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    await boundedLookups.up(db.kysely);
    const rows = await db.kysely.selectFrom('trade_instances').select(['id', 'lot_selection']).where('id', 'in', ids).orderBy('id').execute();
    expect(rows.map((r) => r.lot_selection)).toEqual(['HIFO', 'MinTax', null, null]);
  });

  it('0027 keeps the oldest substitution of a product in each scope, drops one of a product by itself, and refuses a second', async () => {
    const k = db.kysely;
    const { firmId: firm } = await createTestFirm(k, 'subs');
    const [a, b, c] = [(await createProduct(k, firm)).id, (await createProduct(k, firm)).id, (await createProduct(k, firm)).id];
    const account = await createAccount(k, firm);
    await substitutionScopes.down!(k);
    const rows = [[null, a, b], [null, a, c], [account, a, c], [account, a, b], [null, c, c], [account, b, c]] as const;
    for (const [account_id, product_id, substitute_product_id] of rows) await k.insertInto('product_substitutions').values({ firm_id: firm, account_id, product_id, substitute_product_id }).execute();
    await substitutionScopes.up(k);
    const kept = await k.selectFrom('product_substitutions').select(['account_id', 'product_id', 'substitute_product_id']).where('firm_id', '=', firm).orderBy('id').execute();
    expect(kept.map((r) => [r.account_id, r.product_id, r.substitute_product_id])).toEqual([[null, a, b], [account, a, c], [account, b, c]]);
    await expect(k.insertInto('product_substitutions').values({ firm_id: firm, account_id: null, product_id: a, substitute_product_id: c }).execute()).rejects.toThrow();
    await expect(k.insertInto('product_substitutions').values({ firm_id: firm, account_id: account, product_id: b, substitute_product_id: a }).execute()).rejects.toThrow();
  });
});
