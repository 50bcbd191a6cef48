// The rules of shared/design/performance.md through the whole path, on both databases: history
// loaded by `wealth import` (importBook), returns read over HTTP. Each expected number is worked in
// the comment above it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importBook } from '../import/importer.js';
import { useTestApp } from '../../test/support/app.js';
import { createTestBook } from '../../test/support/book.js';
import { describeEachDatabase } from '../../test/support/databases.js';

const dir = mkdtempSync(join(tmpdir(), 'wealth-performance-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeEachDatabase('performance rules over stored history', (database) => {
  const t = useTestApp(database);
  const ids: Record<'emptied' | 'monthEnd' | 'years', number> = { emptied: 0, monthEnd: 0, years: 0 };

  beforeAll(async () => {
    const db = t.db.kysely;
    const book = await createTestBook(db, t.firm.firmId, t.firm.representativeId);
    const numbers: Record<string, string> = {};
    for (const key of Object.keys(ids) as (keyof typeof ids)[]) {
      ids[key] = await book.account();
      numbers[key] = (await db.selectFrom('accounts').select('number').where('id', '=', ids[key]).executeTakeFirstOrThrow()).number;
    }
    const csv = [
      'account,date,market_value,net_flow,fees,income',
      // Emptied and funded again: 1 % a day while invested.
      `${numbers.emptied},2026-01-30,10000,,,`,
      `${numbers.emptied},2026-01-31,10100,,,`,
      `${numbers.emptied},2026-02-01,0,-10100,,`,
      `${numbers.emptied},2026-02-02,0,,,`,
      `${numbers.emptied},2026-02-03,5050,5000,,`,
      `${numbers.emptied},2026-02-04,5100.50,,,`,
      // Month-end values only, with the flows (and a fee) of the days between.
      `${numbers.monthEnd},2026-01-31,100000,,,`,
      `${numbers.monthEnd},2026-02-10,,10000,,`,
      `${numbers.monthEnd},2026-02-28,115000,,,`,
      `${numbers.monthEnd},2026-03-20,,-20000,100,`,
      `${numbers.monthEnd},2026-03-31,97000,,,`,
      // Two years: 10 % a year, 5 % in the first half of the second.
      `${numbers.years},2024-12-31,100000,,,`,
      `${numbers.years},2025-12-31,110000,,,`,
      `${numbers.years},2026-06-30,115500,,,`,
      `${numbers.years},2026-12-31,121000,,,`,
    ].join('\n');
    const path = join(mkdtempSync(join(dir, `${database.name}-`)), 'account_values.csv');
    writeFileSync(path, `${csv}\n`);
    const report = await importBook(t.db, t.firm.firmId, [path]);
    expect(report.errors).toEqual([]);
  });

  const get = async (url: string) => {
    const response = await t.app.inject({ url, headers: { authorization: await t.session('reader') } });
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  it('an account emptied and funded again is never −100 %: the empty sub-periods are left out', async () => {
    // 31 Jan: 10,100 / 10,000 − 1 = 1 %. 1 Feb: all 10,100 leaves at the start of the day, so the
    // denominator 10,100 − 10,100 = 0: no return. 2 Feb: 0 / 0, no return. 3 Feb: 5,050 / (0 + 5,000) − 1 = 1 %.
    // 4 Feb: 5,100.50 / 5,050 − 1 = 1 %. Linked: 1.01³ − 1 = 0.030301.
    // Money-weighted: with q = 1 + the daily rate, −10,000 + 10,100 / q − 5,000 / q³ + 5,100.50 / q⁵ = 0
    // holds at q = 1.01 (10,100 / 1.01 = 10,000 and 5,100.50 / 1.01² = 5,000), so over the 5 days
    // mwr = 1.01⁵ − 1 = 0.0510100501.
    const record = await get(`/api/v1/Portfolio/Accounts/${ids.emptied}/Performance`);
    expect(record).toMatchObject({
      startDate: '2026-01-30', endDate: '2026-02-04', inception: true,
      beginningValue: 10_000, endingValue: 5_100.5, netFlows: -5_100, gainLoss: 200.5,
      twrNet: 0.030301, twrGross: 0.030301, twrNetAnnualized: null, mwr: 0.05101005, mwrAnnualized: null,
    });
    const daily = await get(`/api/v1/Portfolio/Accounts/${ids.emptied}/Performance/Daily`);
    expect(daily.map((d: { date: string; twrNetCumulative: number }) => [d.date, d.twrNetCumulative])).toEqual([
      ['2026-01-30', 0],
      ['2026-01-31', 0.01],
      ['2026-02-01', 0.01],
      ['2026-02-02', 0.01],
      ['2026-02-03', 0.0201],
      ['2026-02-04', 0.030301],
    ]);
  });

  it('month-end values only: Modified Dietz between them weights each flow by the days it was invested', async () => {
    // February (s = 31 Jan, e = 28 Feb, 28 days): +10,000 on 10 Feb weighs (28 − 10 + 1) / 28 = 19/28:
    //   (115,000 − 100,000 − 10,000) / (100,000 + 10,000 × 19/28) = 5,000 / 106,785.71 = 14/299 = 0.046822742.
    // March (s = 28 Feb, e = 31 Mar, 31 days): −20,000 on 20 Mar weighs (31 − 20 + 1) / 31 = 12/31:
    //   net  (97,000 − 115,000 + 20,000) / (115,000 − 20,000 × 12/31) = 2,000 × 31 / 3,325,000 = 0.018646617;
    //   gross, the fee an outflow: (97,000 − 115,000 + 20,100) / (115,000 − 20,100 × 12/31) = 65,100 / 3,323,800 = 0.019586016.
    // Linked: net (313/299)(1 + 62/3,325) − 1 = 0.06634244; gross 1.046822742 × 1.019586016 − 1 = 0.06732583.
    // Money-weighted: r with −100,000 − 10,000 (1 + r)^(−9/365) + 20,000 (1 + r)^(−47/365) + 97,000 (1 + r)^(−59/365) = 0
    // (flows at the start of their day: 10 Feb is 9 days after the close of 31 Jan, 20 Mar 47, the end 59)
    // is r = 0.4936591 a year, (1 + r)^(59/365) − 1 = 0.06700556 over the period; 59 days: not annualised.
    const record = await get(`/api/v1/Portfolio/Accounts/${ids.monthEnd}/Performance?startDate=2026-02-01&endDate=2026-03-31`);
    expect(record).toMatchObject({
      startDate: '2026-02-01', endDate: '2026-03-31', inception: false,
      beginningValue: 100_000, endingValue: 97_000, netFlows: -10_000, fees: 100, gainLoss: 7_000,
      twrNet: 0.06634244, twrGross: 0.06732583, twrNetAnnualized: null, twrGrossAnnualized: null, mwr: 0.06700556, mwrAnnualized: null,
    });
    const daily = await get(`/api/v1/Portfolio/Accounts/${ids.monthEnd}/Performance/Daily?startDate=2026-02-01&endDate=2026-03-31`);
    // One row per valuation date, carrying the flows and fees of the days since the previous one.
    expect(daily).toEqual([
      { date: '2026-01-31', marketValue: 100_000, netFlow: 0, fees: 0, income: 0, twrNetCumulative: 0 },
      { date: '2026-02-28', marketValue: 115_000, netFlow: 10_000, fees: 0, income: 0, twrNetCumulative: 0.04682274 },
      { date: '2026-03-31', marketValue: 97_000, netFlow: -20_000, fees: 100, income: 0, twrNetCumulative: 0.06634244 },
    ]);
  });

  it('a period of more than a year is also annualised; one of less than a year is not', async () => {
    // 31 Dec 2024 to 31 Dec 2026, 730 days: 121,000 / 100,000 − 1 = 0.21; annualised 1.21^(365/730) − 1 = 0.1.
    // Without flows TWR and MWR agree.
    const twoYears = await get(`/api/v1/Portfolio/Accounts/${ids.years}/Performance?startDate=2025-01-01&endDate=2026-12-31`);
    expect(twoYears).toMatchObject({
      startDate: '2025-01-01', endDate: '2026-12-31', inception: false, beginningValue: 100_000, endingValue: 121_000,
      twrNet: 0.21, twrGross: 0.21, twrNetAnnualized: 0.1, twrGrossAnnualized: 0.1, mwr: 0.21, mwrAnnualized: 0.1,
    });
    // 30 Jun to 31 Dec 2026, 184 days: 121,000 / 115,500 − 1 = 0.04761905, and no annualised figure.
    const half = await get(`/api/v1/Portfolio/Accounts/${ids.years}/Performance?startDate=2026-07-01&endDate=2026-12-31`);
    expect(half).toMatchObject({
      startDate: '2026-07-01', endDate: '2026-12-31', beginningValue: 115_500, endingValue: 121_000,
      twrNet: 0.04761905, twrNetAnnualized: null, twrGrossAnnualized: null, mwr: 0.04761905, mwrAnnualized: null,
    });
    // The standard periods ending 31 Dec 2026 each begin at the close of the last value before their
    // first day: MTD (from 1 Dec) and QTD (from 1 Oct) at 30 Jun, so 0.04761905 over 184 days, not
    // annualised; YTD and 1Y (from 1 Jan 2026) at 31 Dec 2025, 121,000 / 110,000 − 1 = 0.1 over 365
    // days, a year, so annualised to itself; 3Y would begin before the first value and is left out.
    const periods = twoYears.periods as { period: string; startDate: string; twrNet: number; twrNetAnnualized: number | null }[];
    expect(periods.map((p) => [p.period, p.startDate, p.twrNet, p.twrNetAnnualized])).toEqual([
      ['MTD', '2026-12-01', 0.04761905, null],
      ['QTD', '2026-10-01', 0.04761905, null],
      ['YTD', '2026-01-01', 0.1, 0.1],
      ['1Y', '2026-01-01', 0.1, 0.1],
      ['ITD', '2024-12-31', 0.21, 0.1],
    ]);
  });
});
