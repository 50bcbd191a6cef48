import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import { seedDemoFirm } from '../seed/demo.js';
import type { Db } from './database.js';

/**
 * Migration 0018: on PostgreSQL a position or a trade is tied to its account by (firm_id, account_id),
 * so the database itself refuses a row that names another firm's account; rows of the firm's own
 * accounts go in, on both databases.
 */
describeEachDatabase('positions and trades belong to their account\'s firm', (database) => {
  let target: { db: Db; drop(): Promise<void> };
  const firms: { id: number; accountId: number; productId: number; instanceId: number }[] = [];

  beforeAll(async () => {
    target = await database.open();
    const k = target.db.kysely;
    for (const code of ['KEYS-A', 'KEYS-B']) {
      const { firm } = await seedDemoFirm(target.db, { households: 1, seed: 1, asOf: '2026-01-02', firmCode: code });
      const account = await k.selectFrom('accounts').select('id').where('firm_id', '=', firm.id).orderBy('id').executeTakeFirstOrThrow();
      const held = await k.selectFrom('positions').select('product_id').where('account_id', '=', account.id).execute();
      const product = await k
        .selectFrom('products')
        .select('id')
        .where('firm_id', '=', firm.id)
        .where('id', 'not in', held.length > 0 ? held.map((p) => p.product_id) : [0])
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const instance = await k
        .insertInto('trade_instances')
        .values({ firm_id: firm.id, routine: 'Rebalance', notes: null, request: '{}', status: 'Open', created_at: '2026-01-02T00:00:00.000Z', created_by: 'test', cancelled_at: null, cancelled_by: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      firms.push({ id: firm.id, accountId: account.id, productId: product.id, instanceId: instance.id });
    }
  });
  afterAll(() => target?.drop());

  const position = (firmId: number, accountId: number, productId: number) =>
    target.db.kysely.insertInto('positions').values({ firm_id: firmId, account_id: accountId, product_id: productId, shares_micros: 1_000_000, cost_cents: 100 });
  const trade = (firmId: number, accountId: number, productId: number, instanceId: number) =>
    target.db.kysely.insertInto('trades').values({
      firm_id: firmId,
      trade_instance_id: instanceId,
      account_id: accountId,
      product_id: productId,
      side: 'Buy',
      trade_type: 'Shares',
      shares_micros: 1_000_000,
      amount_cents: 100,
      price_micros: 1_000_000,
      reason: 'test',
      status: 'Open',
      created_at: '2026-01-02T00:00:00.000Z',
      lots: null,
      short_term_gain_cents: null,
      long_term_gain_cents: null,
      executed_at: null,
    });

  it('takes a position and a trade of the firm\'s own account', async () => {
    const [a] = firms as [(typeof firms)[number]];
    await position(a.id, a.accountId, a.productId).execute();
    await trade(a.id, a.accountId, a.productId, a.instanceId).execute();
  });

  it.runIf(database.name === 'postgres')('refuses, in the database, a position or a trade naming another firm\'s account', async () => {
    const [a, b] = firms as [(typeof firms)[number], (typeof firms)[number]];
    await expect(position(a.id, b.accountId, a.productId).execute()).rejects.toThrow(/positions_firm_account_fk/);
    await expect(trade(a.id, b.accountId, a.productId, a.instanceId).execute()).rejects.toThrow(/trades_firm_account_fk/);
    // The composite key also stands for the firm's own key: a firm that does not exist is refused.
    await expect(position(999_999, b.accountId, b.productId).execute()).rejects.toThrow(/positions_firm_account_fk/);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from positions where account_id = ${b.accountId} and firm_id = ${a.id}`.execute(target.db.kysely);
    expect(rows[0]?.n).toBe(0);
  });
});
