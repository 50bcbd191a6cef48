import { expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { createSmallBook } from './test-support.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { systemReasons } from '../db/migrations/0012_system_reasons.js';
import { seedDemoFirm } from '../seed/demo.js';
import { SYSTEM_REASONS } from './records.js';

/** Spec 2.5: a firm has its system trade-block reasons from the moment it exists. */
describeEachDatabase('system trade-block reasons', (database) => {
  const t = useTestApp(database);
  const systemReasonsOf = async (firmId: number) =>
    (await t.db.kysely.selectFrom('trade_block_reasons').select(['id', 'name']).where('firm_id', '=', firmId).where('is_system_maintained', '=', 1).orderBy('id').execute());

  it('a seeded firm has them at once, before the platform\'s trade blocks are used', async () => {
    const { firm } = await seedDemoFirm(t.db, { households: 0, seed: 1, firmCode: 'FRESH' });
    expect((await systemReasonsOf(firm.id)).map((r) => r.name)).toEqual(SYSTEM_REASONS);
  });

  it('the rebalancer\'s v2 AddList takes the Manual reason of a firm that never used the platform side', async () => {
    const book = await createSmallBook(t.db.kysely, t.otherFirm.firmId, t.otherFirm.representativeId);
    const manual = (await systemReasonsOf(t.otherFirm.firmId)).find((r) => r.name === 'Manual')!;
    const minted = await t.app.inject({ url: '/rebalancer/v1/admin/token', headers: { authorization: await t.session('service', 'otherFirm') } });
    const added = await t.app.inject({
      method: 'POST',
      url: '/rebalancer/api/v2/TradeBlockDetails/AddList',
      headers: { authorization: `Session ${minted.json().access_token}` },
      payload: [{ relatedType: 32, relatedTypeId: book.account, tradeBlockReasonId: manual.id, description: 'first use', startDate: '2026-03-01' }],
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()[0]).toMatchObject({ tradeBlockReasonName: 'Manual' });
  });

  it('the migration gives them to firms created before', async () => {
    const now = new Date().toISOString();
    const old = await t.db.kysely
      .insertInto('firms')
      .values({ name: 'Old firm', code: 'OLD', multi_trade_block: 1, trade_block_dates: 1, trade_block_custom_types: 0, default_asset_values: 'PendingTransactionsAndOrders', created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await systemReasonsOf(old.id)).toEqual([]);
    await systemReasons.up(t.db.kysely);
    expect((await systemReasonsOf(old.id)).map((r) => r.name)).toEqual(SYSTEM_REASONS);
    expect((await systemReasonsOf(t.firm.firmId)).length).toBe(4);
  });
});
