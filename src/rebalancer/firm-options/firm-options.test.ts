import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.js';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { createAccount, rebalancerSession } from '../../../test/support/rebalancer.js';

/** The firm options sections 4.2 rules 2 and 6 name: multi trade block and custom trade block types. */
describeEachDatabase('firm options', (database) => {
  const t = useTestApp(database);
  let admin: string;
  const call = (method: 'GET' | 'PUT', payload?: object, authorization = admin) => t.app.inject({ method, url: '/rebalancer/v1/admin/firms/options', payload, headers: { authorization } });
  const stored = async (firmId = t.firm.firmId) => t.db.kysely.selectFrom('firms').select(['multi_trade_block', 'trade_block_custom_types']).where('id', '=', firmId).executeTakeFirstOrThrow();

  beforeAll(async () => {
    admin = await rebalancerSession(t);
  });

  it('reads the caller\'s firm options as 0/1 and changes them; the other firm\'s stay', async () => {
    const before = await call('GET');
    expect(before.statusCode).toBe(200);
    const now = await stored();
    expect(before.json()).toEqual({ multiTradeBlock: now.multi_trade_block, customTradeBlockTypes: now.trade_block_custom_types });
    const other = await stored(t.otherFirm.firmId);

    const changed = await call('PUT', { multiTradeBlock: false, customTradeBlockTypes: true });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ multiTradeBlock: 0, customTradeBlockTypes: 1 });
    expect(await stored()).toEqual({ multi_trade_block: 0, trade_block_custom_types: 1 });
    // Read, change one field, send back: 0/1 as reads give it.
    const back = await call('PUT', { ...changed.json(), multiTradeBlock: 1 });
    expect(back.json()).toEqual({ multiTradeBlock: 1, customTradeBlockTypes: 1 });
    expect((await call('PUT', { customTradeBlockTypes: 0 })).json()).toEqual({ multiTradeBlock: 1, customTradeBlockTypes: 0 });
    expect(await stored(t.otherFirm.firmId)).toEqual(other);
    expect((await call('GET', undefined, await rebalancerSession(t, 'admin', 'otherFirm'))).json()).toEqual({ multiTradeBlock: other.multi_trade_block, customTradeBlockTypes: other.trade_block_custom_types });
  });

  it('the platform\'s trade blocks follow the option: with multi trade block off no detail record is created', async () => {
    await call('PUT', { multiTradeBlock: 0 });
    const platform = await t.session('admin');
    const reasons = (await t.app.inject({ url: '/api/v1/Trading/TradeBlocks/Reasons/Simple', headers: { authorization: platform } })).json();
    const manual = reasons.find((r: { name: string }) => r.name === 'Manual').id;
    const accountId = await createAccount(t.db.kysely, t.firm.firmId);
    const block = { id: 0, entityEnum: 7, entityId: accountId, startDate: '2026-01-01', description: 'legacy', tradeBlockReasonId: manual };
    const details = () => t.db.kysely.selectFrom('trade_block_details').select('id').where('firm_id', '=', t.firm.firmId).where('entity_id', '=', accountId).execute();
    const legacy = await t.app.inject({ method: 'POST', url: '/api/v1/Trading/TradeBlocks', headers: { authorization: platform }, payload: [block] });
    expect(legacy.statusCode, legacy.body).toBe(200);
    expect(await details()).toEqual([]);
    expect((await t.db.kysely.selectFrom('accounts').select('is_trading_blocked').where('id', '=', accountId).executeTakeFirstOrThrow()).is_trading_blocked).toBe(1);
    await call('PUT', { multiTradeBlock: 1 });
    const multi = await t.app.inject({ method: 'POST', url: '/api/v1/Trading/TradeBlocks', headers: { authorization: platform }, payload: [block] });
    expect(multi.statusCode, multi.body).toBe(200);
    expect(await details()).toHaveLength(1);
    await call('PUT', { multiTradeBlock: 1 });
  });

  it('refuses bad bodies with a 400 naming the field and changes nothing', async () => {
    const before = await stored();
    const cases: [object, string][] = [
      [{ multiTradeBlock: 2 }, 'multiTradeBlock'],
      [{ multiTradeBlock: 'yes' }, 'multiTradeBlock'],
      [{ multiTradeBlock: true, customTradeBlockTypes: 'no' }, 'customTradeBlockTypes'],
      [{}, 'body'],
    ];
    for (const [payload, field] of cases) {
      const response = await call('PUT', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().errors.map((e: { field: string }) => e.field), response.body).toContain(field);
    }
    expect(await stored()).toEqual(before);
  });

  it('reading needs portfolio.read, changing needs a platform administrator; rebalancer tokens only', async () => {
    const before = await stored();
    expect((await call('GET', undefined, await rebalancerSession(t, 'reader'))).statusCode).toBe(200);
    expect((await call('GET', undefined, await rebalancerSession(t, 'nobody'))).statusCode).toBe(403);
    expect((await call('PUT', { multiTradeBlock: 0 }, await rebalancerSession(t, 'advisor'))).statusCode).toBe(403);
    expect((await call('PUT', { multiTradeBlock: 0 }, await t.session('admin'))).statusCode).toBe(401);
    expect(await stored()).toEqual(before);
  });
});
