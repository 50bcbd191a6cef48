import { expect } from 'vitest';
import type { TestContext } from '../../../test/support/app.js';
import { addPosition, createAccount, createProduct, rebalancerSession } from '../../../test/support/rebalancer.js';

export interface EclipseBook {
  admin: string;
  stranger: string;
  nobody: string;
  products: { id: number; ticker: string }[];
  modelId: number;
  /** A registration with two accounts (the first holds positions and an open sell). */
  portfolioId: number;
  accountIds: [number, number];
  number: string;
  instanceId: number;
  openTradeId: number;
  executedTradeId: number;
  strangerAccount: number;
  strangerPortfolio: number;
}

/** A small book for the Eclipse reads: one portfolio of two accounts on a model, an instance with an open and an executed order. */
export async function eclipseBook(t: TestContext): Promise<EclipseBook> {
  const db = t.db.kysely;
  const firmId = t.firm.firmId;
  const admin = await rebalancerSession(t);
  const stranger = await rebalancerSession(t, 'admin', 'otherFirm');
  const nobody = await rebalancerSession(t, 'nobody');
  const products = [await createProduct(db, firmId, 100, 'ECLA'), await createProduct(db, firmId, 50, 'ECLB')];
  const [a, b] = products as [{ id: number; ticker: string }, { id: number; ticker: string }];
  const model = await t.app.inject({
    method: 'POST',
    url: '/rebalancer/v1/modeling/models',
    headers: { authorization: admin },
    payload: { name: 'Eclipse Growth', cashTargetPercent: 10, targets: [{ productId: a.id, targetPercent: 60, lowerTolerance: 5, upperTolerance: 5 }, { productId: b.id, targetPercent: 30, lowerTolerance: 2, upperTolerance: 3 }] },
  });
  expect(model.statusCode, model.body).toBe(200);
  const modelId = model.json().id as number;
  const first = await createAccount(db, firmId, { cash: 1000, modelId });
  const registration = await db.selectFrom('accounts').select('registration_id').where('id', '=', first).executeTakeFirstOrThrow();
  await db.updateTable('registrations').set({ name: 'Eclipse Joint' }).where('id', '=', registration.registration_id).execute();
  await db.updateTable('accounts').set({ name: 'Eclipse Brokerage', number: 'ECL-7731' }).where('id', '=', first).execute();
  const second = await createAccount(db, firmId, { cash: 500 });
  await db.updateTable('accounts').set({ registration_id: registration.registration_id, name: 'Eclipse Cash', number: 'ECL-7732' }).where('id', '=', second).execute();
  await addPosition(db, firmId, first, a.id, 60, 5000);
  await addPosition(db, firmId, first, b.id, 20, 900);
  const instance = await db
    .insertInto('trade_instances')
    .values({ firm_id: firmId, routine: 'Rebalance', notes: 'November rebalance', request: '{}', status: 'Open', created_at: '2026-11-02T10:00:00.000Z', created_by: 'admin@alpha', cancelled_at: null, cancelled_by: null, trade_count: 2 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const trade = (side: 'Buy' | 'Sell', status: 'Open' | 'Executed', productId: number, shares: number, price: number) => ({
    firm_id: firmId,
    trade_instance_id: instance.id,
    account_id: first,
    product_id: productId,
    side,
    trade_type: 'Shares' as const,
    shares_micros: shares * 1_000_000,
    amount_cents: shares * price * 100,
    price_micros: price * 1_000_000,
    reason: 'Rebalance',
    status,
    created_at: '2026-11-02T10:00:00.000Z',
    executed_at: status === 'Executed' ? '2026-11-03T15:00:00.000Z' : null,
  });
  const open = await db.insertInto('trades').values(trade('Sell', 'Open', a.id, 5, 100)).returning('id').executeTakeFirstOrThrow();
  const executed = await db.insertInto('trades').values(trade('Buy', 'Executed', b.id, 10, 50)).returning('id').executeTakeFirstOrThrow();
  const strangerAccount = await createAccount(db, t.otherFirm.firmId, { cash: 5 });
  const strangerPortfolio = (await db.selectFrom('accounts').select('registration_id').where('id', '=', strangerAccount).executeTakeFirstOrThrow()).registration_id;
  return {
    admin,
    stranger,
    nobody,
    products,
    modelId,
    portfolioId: registration.registration_id,
    accountIds: [first, second],
    number: 'ECL-7731',
    instanceId: instance.id,
    openTradeId: open.id,
    executedTradeId: executed.id,
    strangerAccount,
    strangerPortfolio,
  };
}
