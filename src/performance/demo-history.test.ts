import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import type { Db } from '../db/database.js';
import { seedDemoFirm } from '../seed/demo.js';
import { seedDemoHistory } from './demo-history.js';
import { PerformanceRepository } from './repository.js';
import { PerformanceService } from './service.js';
import { ValuationService } from './valuation.js';
import { systemClock } from '../shared/clock.js';

describeEachDatabase('the demo firm\'s performance history', (dialect) => {
  let target: { db: Db; drop(): Promise<void> };
  let firmId = 0;
  const asOf = '2026-11-25';

  beforeAll(async () => {
    target = await dialect.open();
    ({ firm: { id: firmId } } = await seedDemoFirm(target.db, { households: 3, seed: 1, asOf, firmCode: 'PERFDEMO' }));
    await seedDemoHistory(target.db.kysely, firmId, { asOf, seed: 1 });
  });
  afterAll(() => target?.drop());

  it('gives a household a full period table on the first call', async () => {
    const service = new PerformanceService(new PerformanceRepository(target.db.kysely));
    const household = (await target.db.kysely.selectFrom('clients').select('id').where('firm_id', '=', firmId).orderBy('id').executeTakeFirstOrThrow()).id;
    const record = await service.record({ firmId, userId: 0, userName: 'test', kind: 'user', clientId: null, privileges: new Set() }, 'Clients', household, {});
    expect(record.endDate).toBe(asOf);
    expect(record.periods.map((p) => p.period)).toEqual(['MTD', 'QTD', 'YTD', '1Y', '3Y', 'ITD']);
    expect(record.twrNet).not.toBeNull();
    expect(record.twrNetAnnualized).not.toBeNull();
    // Quarterly fees: gross beats net.
    expect(record.twrGross!).toBeGreaterThan(record.twrNet!);
  });

  it('ends at exactly what the daily valuation stores for today\'s positions, cash and prices', async () => {
    const stored = await target.db.kysely.selectFrom('account_values').select(['account_id', 'market_value_cents']).where('firm_id', '=', firmId).where('value_date', '=', asOf).orderBy('account_id').execute();
    await new ValuationService(new PerformanceRepository(target.db.kysely), systemClock).valueDay(asOf, { firmCode: 'PERFDEMO' });
    const valued = await target.db.kysely.selectFrom('account_values').select(['account_id', 'market_value_cents']).where('firm_id', '=', firmId).where('value_date', '=', asOf).orderBy('account_id').execute();
    expect(valued.length).toBeGreaterThan(0);
    for (const [i, row] of valued.entries()) expect(Math.abs(row.market_value_cents! - stored[i]!.market_value_cents!)).toBeLessThanOrEqual(valued.length);
  });
});
