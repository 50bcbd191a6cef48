import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestBook } from '../../test/support/book.js';
import { createTestFirm, type TestFirm } from '../../test/support/firm.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import type { Db } from '../db/database.js';
import { systemClock } from '../shared/clock.js';
import { runValueCommand } from './command.js';
import { PerformanceRepository } from './repository.js';
import { ValuationService } from './valuation.js';

describeEachDatabase('daily valuation', (database) => {
  let db: Db;
  let firm: TestFirm;
  let account = 0;
  let valuation: ValuationService;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await database.open());
    firm = await createTestFirm(db.kysely, 'val');
    const book = await createTestBook(db.kysely, firm.firmId, firm.representativeId);
    account = await book.account({ cash: 1_000, holdings: { VTI: 400, BND: 100 } });
    await db.kysely
      .insertInto('product_prices')
      .values([
        { firm_id: firm.firmId, product_id: book.products.VTI, price_date: '2026-02-27', price_micros: 205e6 },
        { firm_id: firm.firmId, product_id: book.products.VTI, price_date: '2026-03-02', price_micros: 210e6 },
        { firm_id: firm.firmId, product_id: book.products.VTI, price_date: '2026-03-03', price_micros: 999e6 },
      ])
      .execute();
    const tx = (type: string, amount: number, date = '2026-03-02') => ({ firm_id: firm.firmId, account_id: account, type, amount_cents: amount * 100, trade_date: date, description: null, created_at: '2026-03-02T20:00:00Z', created_by: 'test' });
    await db.kysely
      .insertInto('account_transactions')
      .values([tx('Contribution', 500), tx('Distribution', 200), tx('MergeOut', 50), tx('Fee', 25), tx('Dividend', 40), tx('Interest', 2), tx('Other', 7_000), tx('Contribution', 9_999, '2026-03-03')])
      .execute();
    valuation = new ValuationService(new PerformanceRepository(db.kysely), systemClock);
  });
  // The suite's own schema on PostgreSQL goes with it.
  afterAll(() => drop());

  const rows = () => db.kysely.selectFrom('account_values').selectAll().where('account_id', '=', account).execute();

  it('values positions at the latest price on or before the date plus cash, and takes the day\'s flows, fees and income', async () => {
    const summary = await valuation.valueDay('2026-03-02', { firmCode: 'val' });
    expect(summary).toEqual({ date: '2026-03-02', firms: 1, skipped: 0, accounts: 1 });
    // 400 VTI × 210 + 100 BND × 80 (the product's own price: no history) + 1,000 cash = 93,000;
    // flows +500 − 200 − 50 = 250; fee 25; income 40 + 2. 'Other' and trades are internal.
    expect(await rows()).toEqual([
      { firm_id: firm.firmId, account_id: account, value_date: '2026-03-02', market_value_cents: 9_300_000, net_flow_cents: 25_000, fees_cents: 2_500, income_cents: 4_200 },
    ]);
  });

  it('replaces the date\'s rows when run again: nothing doubles', async () => {
    await valuation.valueDay('2026-03-02', { firmCode: 'val' });
    expect((await rows()).length).toBe(1);
    // A price at an earlier date is used for a later one: 1 March takes 27 February's 205.
    await valuation.valueDay('2026-03-01', { firmCode: 'val' });
    expect((await rows()).map((r) => [r.value_date, r.market_value_cents])).toEqual(
      expect.arrayContaining([['2026-03-01', 400 * 205_00 + 100 * 80_00 + 1_000_00]]),
    );
  });

  it('runs once across nodes: a date claimed by one node is skipped by another', async () => {
    expect(await valuation.valueDay('2026-03-04', { firmCode: 'val', claimAs: 'node-a' })).toMatchObject({ firms: 1, skipped: 0 });
    expect(await valuation.valueDay('2026-03-04', { firmCode: 'val', claimAs: 'node-b' })).toMatchObject({ firms: 0, skipped: 1 });
    const claim = await db.kysely.selectFrom('valuation_runs').selectAll().where('firm_id', '=', firm.firmId).executeTakeFirstOrThrow();
    expect(claim).toMatchObject({ claimed_by: 'node-a', value_date: '2026-03-04' });
    expect(claim.finished_at).not.toBeNull();
  });

  it('wealth value names a bad date or firm and exits non-zero', async () => {
    const lines: string[] = [];
    expect(await runValueCommand(valuation, { date: '2026-13-01' }, (l) => lines.push(l))).toBe(1);
    expect(await runValueCommand(valuation, { date: '2026-03-02', firm: 'nope' }, (l) => lines.push(l))).toBe(1);
    expect(lines).toEqual(['--date: must be a date YYYY-MM-DD; got "2026-13-01"', '--firm: no firm with code nope']);
    expect(await runValueCommand(valuation, { date: '2026-03-02', firm: 'val' }, (l) => lines.push(l))).toBe(0);
    expect(lines[2]).toBe('valued 1 accounts of 1 firm(s) at the close of 2026-03-02');
  });
});
