import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import { seedDemoFirm } from '../seed/demo.js';
import { copyRows } from './copy-rows.js';
import type { Db } from './database.js';

/**
 * Migration 0032: on PostgreSQL the keys of the tables written in bulk (trades, batch messages,
 * clients, registrations, accounts, positions, tax lots; household tax summaries by 0034) are checked once a statement (src/db/migrations/statement-checked-keys.ts). They must refuse and
 * cascade exactly as the foreign keys they replaced did — and as SQLite's foreign keys still do —
 * including against a concurrent writer or deleter of the same parent.
 */
describeEachDatabase('statement-checked keys hold as foreign keys do', (database) => {
  let target: { db: Db; drop(): Promise<void> };
  let firmId: number;
  let accountId: number;
  let instanceId: number;
  const postgres = database.name === 'postgres';
  const now = '2026-01-02T00:00:00.000Z';

  beforeAll(async () => {
    target = await database.open();
    const k = target.db.kysely;
    ({
      firm: { id: firmId },
    } = await seedDemoFirm(target.db, { households: 1, seed: 1, asOf: '2026-01-02', firmCode: 'STMT' }));
    accountId = (await k.selectFrom('accounts').select('id').where('firm_id', '=', firmId).orderBy('id').executeTakeFirstOrThrow()).id;
    instanceId = (
      await k
        .insertInto('trade_instances')
        .values({ firm_id: firmId, routine: 'Rebalance', notes: null, request: '{}', status: 'Open', created_at: now, created_by: 'test', cancelled_at: null, cancelled_by: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => target?.drop());

  /** A product nothing refers to yet, so that deleting it is up to the key under test alone. */
  const freshProduct = async (symbol: string) =>
    (
      await target.db.kysely
        .insertInto('products')
        .values({ firm_id: firmId, ticker: symbol, name: symbol, type: 'Equity', is_cash: 0, allows_fractional: 0, price_micros: 10_000_000, price_date: '2026-01-02', created_at: now, created_by: 'test', edited_at: now, edited_by: 'test' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const tradeRow = (productId: number, account = accountId) => ({
    firm_id: firmId,
    trade_instance_id: instanceId,
    account_id: account,
    product_id: productId,
    side: 'Buy' as const,
    trade_type: 'Shares' as const,
    shares_micros: 1_000_000,
    amount_cents: 100,
    price_micros: 1_000_000,
    reason: 'test',
    status: 'Open' as const,
    created_at: now,
    lots: null,
    short_term_gain_cents: null,
    long_term_gain_cents: null,
    executed_at: null,
  });
  const refused = (name: string) => (postgres ? new RegExp(`violates foreign key constraint "${name}"`) : /FOREIGN KEY constraint failed/);
  const tradesOf = async (productId: number) => (await target.db.kysely.selectFrom('trades').select('id').where('product_id', '=', productId).execute()).length;

  it('takes rows whose parents exist, and refuses a whole statement for one row without its parent', async () => {
    const product = await freshProduct('STMT1');
    await target.db.kysely.insertInto('trades').values([tradeRow(product), tradeRow(product)]).execute();
    await expect(target.db.kysely.insertInto('trades').values([tradeRow(product), tradeRow(999_999)]).execute()).rejects.toThrow(refused('trades_product_id_fkey'));
    await expect(target.db.kysely.insertInto('trades').values(tradeRow(product, 999_999)).execute()).rejects.toThrow(refused('trades_firm_account_fk'));
    expect(await tradesOf(product)).toBe(2);
  });

  it.runIf(postgres)('names the constraint, its table and the missing key as PostgreSQL does, and refuses COPY alike', async () => {
    const error = await target.db.kysely
      .insertInto('trades')
      .values(tradeRow(999_998))
      .execute()
      .catch((e: unknown) => e as pg.DatabaseError);
    expect(error).toMatchObject({ code: '23503', constraint: 'trades_product_id_fkey', table: 'trades', detail: 'Key (product_id)=(999998) is not present in table "products".' });
    const twoColumns = await target.db.kysely
      .insertInto('trades')
      .values(tradeRow(await freshProduct('STMT8'), 999_994))
      .execute()
      .catch((e: unknown) => e as pg.DatabaseError);
    expect(twoColumns).toMatchObject({ code: '23503', constraint: 'trades_firm_account_fk', table: 'trades', detail: `Key (firm_id, account_id)=(${firmId}, 999994) is not present in table "accounts".` });
    const product = await freshProduct('STMT2');
    const rows = Array.from({ length: 40 }, (_, i) => [i === 39 ? 999_997 : product]);
    const constants = Object.entries(tradeRow(product))
      .filter(([column]) => column !== 'product_id')
      .map(([column, value]) => [column, typeof value === 'number' ? 'int8' : 'text', value]) as never;
    await expect(copyRows(target.db.kysely, 'trades', [['product_id', 'int4']], constants, rows)).rejects.toThrow(refused('trades_product_id_fkey'));
    expect(await tradesOf(product)).toBe(0);
  });

  it("checks a household tax summary's batch and firm (migration 0034)", async () => {
    const k = target.db.kysely;
    const batchId = (
      await k
        .insertInto('batches')
        .values({ firm_id: firmId, trade_instance_id: instanceId, status: 'Running', message: '', total_items: 1, chunks_total: 1, created_at: now, created_by: 'test', created_by_user_id: 1, completed_at: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const summary = (batch: number, firm = firmId) => ({ firm_id: firm, batch_id: batch, client_id: 1, short_term_gain_cents: 0, long_term_gain_cents: 0, harvested_loss_cents: 0, wash_sale_moves: 0, budget_cuts: 0 });
    await k.insertInto('batch_tax_summaries').values([summary(batchId), summary(batchId)]).execute();
    await expect(k.insertInto('batch_tax_summaries').values([summary(batchId), summary(999_999)]).execute()).rejects.toThrow(refused('batch_tax_summaries_batch_id_fkey'));
    await expect(k.insertInto('batch_tax_summaries').values(summary(batchId, 999_999)).execute()).rejects.toThrow(refused('batch_tax_summaries_firm_id_fkey'));
    await expect(k.deleteFrom('batches').where('id', '=', batchId).execute()).rejects.toThrow(postgres ? /violates foreign key constraint "batch_tax_summaries_batch_id_fkey"/ : /FOREIGN KEY constraint failed/);
    expect((await k.selectFrom('batch_tax_summaries').select('id').where('batch_id', '=', batchId).execute()).length).toBe(2);
    await k.deleteFrom('batch_tax_summaries').where('batch_id', '=', batchId).execute();
    await k.deleteFrom('batches').where('id', '=', batchId).execute();
  });

  it('refuses a key changed to a parent that does not exist', async () => {
    const product = await freshProduct('STMT3');
    await target.db.kysely.insertInto('trades').values(tradeRow(product)).execute();
    await expect(target.db.kysely.updateTable('trades').set({ product_id: 999_996 }).where('product_id', '=', product).execute()).rejects.toThrow(refused('trades_product_id_fkey'));
    // A change that leaves the keys alone is not checked at all.
    await target.db.kysely.updateTable('trades').set({ status: 'Executed' }).where('product_id', '=', product).execute();
  });

  it('leaves a null key unchecked, as MATCH SIMPLE does, and checks it once set', async () => {
    const k = target.db.kysely;
    const { model_id: model } = await k.selectFrom('accounts').select('model_id').where('id', '=', accountId).executeTakeFirstOrThrow();
    await k.updateTable('accounts').set({ model_id: null }).where('id', '=', accountId).execute();
    await expect(k.updateTable('accounts').set({ model_id: 999_994 }).where('id', '=', accountId).execute()).rejects.toThrow(refused('accounts_model_id_fkey'));
    await k.updateTable('accounts').set({ model_id: model }).where('id', '=', accountId).execute();
  });

  it('refuses deleting a parent still referenced, and deletes it once its children are gone', async () => {
    const product = await freshProduct('STMT4');
    await target.db.kysely.insertInto('trades').values(tradeRow(product)).execute();
    const deleting = await target.db.kysely
      .deleteFrom('products')
      .where('id', '=', product)
      .execute()
      .catch((e: unknown) => e as pg.DatabaseError);
    expect(deleting).toMatchObject(
      postgres
        ? {
            message: 'update or delete on table "products" violates foreign key constraint "trades_product_id_fkey" on table "trades"',
            detail: `Key (id)=(${product}) is still referenced from table "trades".`,
          }
        : { message: 'FOREIGN KEY constraint failed' },
    );
    await target.db.kysely.deleteFrom('trades').where('product_id', '=', product).execute();
    await target.db.kysely.deleteFrom('products').where('id', '=', product).execute();
  });

  it('deletes a position\'s lots with it (cascade)', async () => {
    const k = target.db.kysely;
    const position = await k.selectFrom('tax_lots').select('position_id').where('firm_id', '=', firmId).executeTakeFirstOrThrow();
    expect((await k.selectFrom('tax_lots').select('id').where('position_id', '=', position.position_id).execute()).length).toBeGreaterThan(0);
    await k.deleteFrom('positions').where('id', '=', position.position_id).execute();
    expect(await k.selectFrom('tax_lots').select('id').where('position_id', '=', position.position_id).execute()).toEqual([]);
  });

  it.runIf(postgres)('refuses a parent\'s key changed under its children, and a parent truncated without them', async () => {
    const product = await freshProduct('STMT5');
    await target.db.kysely.insertInto('trades').values(tradeRow(product)).execute();
    await expect(target.db.kysely.updateTable('products').set({ id: 999_995 }).where('id', '=', product).execute()).rejects.toThrow(/violates foreign key constraint "trades_product_id_fkey" on table "trades"/);
    // Cascade truncates the tables whose foreign keys name trade_instances, not trades.
    const truncating = await sql`truncate trade_instances cascade`.execute(target.db.kysely).catch((e: unknown) => e as pg.DatabaseError);
    expect(truncating).toMatchObject({ message: 'cannot truncate a table referenced in a foreign key constraint', detail: 'Table "trades" references "trade_instances" (key "trades_trade_instance_id_fkey").' });
    expect(await tradesOf(product)).toBe(1);
  });

  // Two sessions on the same parent, as a worker writing trades and a user deleting a product.
  const session = async () => {
    const client = new pg.Client({ connectionString: database.config.dialect === 'postgres' ? database.config.url : '' });
    await client.connect();
    await client.query(`set search_path = ${target.db.schema}`);
    return client;
  };
  const insertTrade = (client: pg.Client, productId: number) =>
    client.query(
      `insert into trades (firm_id, trade_instance_id, account_id, product_id, side, trade_type, shares_micros, amount_cents, price_micros, reason, status, created_at)
       values ($1, $2, $3, $4, 'Buy', 'Shares', 1, 1, 1, 'test', 'Open', $5)`,
      [firmId, instanceId, accountId, productId, now],
    );

  it.runIf(postgres)('a deleter waits for a concurrent writer of a child, then sees its row and is refused', async () => {
    const product = await freshProduct('STMT6');
    const [writer, deleter] = [await session(), await session()];
    try {
      await writer.query('begin');
      await insertTrade(writer, product);
      const deleting = deleter.query('delete from products where id = $1', [product]).then(() => 'deleted', (e: Error) => e.message);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await writer.query('commit');
      expect(await deleting).toMatch(/violates foreign key constraint "trades_product_id_fkey" on table "trades"/);
      expect(await tradesOf(product)).toBe(1);
    } finally {
      await writer.end();
      await deleter.end();
    }
  });

  it.runIf(postgres)('a writer waits for a concurrent deleter of the parent, then finds no parent and is refused', async () => {
    const product = await freshProduct('STMT7');
    const [writer, deleter] = [await session(), await session()];
    try {
      await deleter.query('begin');
      await deleter.query('delete from products where id = $1', [product]);
      const writing = insertTrade(writer, product).then(() => 'written', (e: Error) => e.message);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await deleter.query('commit');
      expect(await writing).toMatch(/violates foreign key constraint "trades_product_id_fkey"/);
      expect(await tradesOf(product)).toBe(0);
    } finally {
      await writer.end();
      await deleter.end();
    }
  });
});
