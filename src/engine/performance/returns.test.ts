// Hand-worked cases of every rule of the performance page: each test states its arithmetic.
import { describe, expect, test } from 'vitest';
import { aggregateHistory } from './aggregate.js';
import { benchmarkReturn } from './benchmark.js';
import { dayOf, isoOf, yearsBefore } from './days.js';
import { history, type Row } from './fixtures.js';
import { standardPeriods } from './periods.js';
import { measure, type Measurement } from './returns.js';

const d = dayOf;
const run = (rows: Parameters<typeof history>[0], start?: string, end?: string): Measurement => {
  const m = measure(history(rows), start ? d(start) : undefined, end ? d(end) : undefined);
  if (!m) throw new Error('no valuation');
  return m;
};

describe('no flows', () => {
  test('TWR = MWR = end / start − 1, not annualised under a year', () => {
    // 101,970 / 100,000 − 1 = 0.0197 over 59 days.
    const m = run([['2025-12-31', 100_000], ['2026-01-31', 103_000], ['2026-02-28', 101_970]]);
    expect(m).toMatchObject({ twrNet: 0.0197, twrGross: 0.0197, mwr: 0.0197, twrNetAnnualized: null, mwrAnnualized: null, gainLoss: 1_970, inception: true });
    expect(m.endDay - m.beginDay).toBe(59);
  });
});

describe('a contribution and a withdrawal mid-period', () => {
  const rows: Parameters<typeof history>[0] = [
    ['2026-03-31', 100_000],
    ['2026-04-30', 110_000], //                      R1 = 110,000 / 100,000 − 1 = +10 %
    ['2026-05-01', null, 100_000], //                contribution at the start of 1 May
    ['2026-05-31', 189_000], //                      R2 = (189,000 − 110,000 − 100,000) / (110,000 + 31/31 · 100,000) = −10 %
    ['2026-06-01', null, -50_000], //                withdrawal at the start of 1 June
    ['2026-06-30', 145_950], //                      R3 = (145,950 − 189,000 + 50,000) / (189,000 − 30/30 · 50,000) = +5 %
  ];
  test('TWR links the sub-periods: 1.10 × 0.90 × 1.05 − 1 = 3.95 %', () => {
    const m = run(rows, '2026-04-01', '2026-06-30');
    expect(m.twrNet).toBe(0.0395);
    expect(m).toMatchObject({ beginningValue: 100_000, endingValue: 145_950, netFlows: 50_000, gainLoss: -4_050, inception: false });
  });
  test('MWR weighs the −10 % month by the money in it: −2.69 %, 6.64 points under the TWR', () => {
    // 100,000·G + 100,000·G^(61/91) − 50,000·G^(30/91) = 145,950 (91 days; the contribution has 61 of
    // them left at the start of 1 May, the withdrawal 30): G = 0.97312528…, so mwr = −2.6874718 %.
    const m = run(rows, '2026-04-01', '2026-06-30');
    expect(m.mwr).toBeCloseTo(-0.02687472, 8);
    expect((m.twrNet as number) - (m.mwr as number)).toBeCloseTo(0.06637472, 8);
    expect(m.mwrAnnualized).toBeNull();
  });
});

describe('an account emptied and funded again', () => {
  test('is never −100 %: the empty days have no return and drop out of the linking', () => {
    const m = run([
      ['2025-12-31', 48_000],
      ['2026-01-01', 50_000], //              50,000 / 48,000 = 25/24
      ['2026-01-02', 0, -50_000], //          denominator 50,000 − 50,000 = 0: no return
      ['2026-01-03', 0], //                   denominator 0: no return
      ['2026-01-04', 20_400, 20_000], //      20,400 / 20,000 = 1.02
      ['2026-01-05', 20_196], //              20,196 / 20,400 = 0.99
    ]);
    // 25/24 × 1.02 × 0.99 − 1 = 5.1875 %
    expect(m.twrNet).toBe(0.051875);
    // 48,000·G − 50,000·G^(4/5) + 20,000·G^(2/5) = 20,196 over 5 days: G = 1.13546359
    expect(m.mwr).toBeCloseTo(0.13546359, 8);
  });
});

describe('fees', () => {
  test('net of fees the fee is a loss; gross of fees it is an outflow at the start of its day', () => {
    const m = run([['2026-04-29', 100_000], ['2026-04-30', 100_900, 0, 100]]);
    // net: 100,900 / 100,000 − 1 = 0.9 %; gross: 100,900 / (100,000 − 100) − 1 = 1.001001 %
    expect(m).toMatchObject({ twrNet: 0.009, twrGross: 0.01001001, mwr: 0.009, fees: 100, netFlows: 0, gainLoss: 900 });
  });
});

describe('income', () => {
  test('a dividend stays in the account: part of the return, not a flow', () => {
    const m = run([['2026-06-29', 50_000], ['2026-06-30', 50_800, 0, 0, 300]]);
    // 50,800 / 50,000 − 1 = 1.6 %, of which 300 is income
    expect(m).toMatchObject({ twrNet: 0.016, mwr: 0.016, income: 300, netFlows: 0 });
  });
});

describe('month-end values only', () => {
  test('Modified Dietz weighs a mid-month flow by the days it was invested', () => {
    const m = run([['2026-01-31', 100_000], ['2026-02-15', null, 20_000], ['2026-02-28', 123_000]]);
    // w = (28 Feb − 15 Feb + 1) / 28 = 0.5: (123,000 − 100,000 − 20,000) / (100,000 + 0.5 · 20,000) = 3,000 / 110,000
    expect(m.twrNet).toBe(0.02727273);
    // 100,000·G + 20,000·√G = 123,000: √G = (−20,000 + √(4.96·10¹⁰)) / 200,000, G − 1 = 2.7289425 %
    expect(m.mwr).toBeCloseTo(0.02728943, 8);
  });
});

describe('annualising', () => {
  const rows: Parameters<typeof history>[0] = [['2024-12-31', 100_000], ['2025-12-31', 110_000], ['2026-06-30', 115_500]];
  test('a period of more than a year is also annualised', () => {
    // 546 days: 1.155^(365/546) − 1 = 10.112327 %
    const m = run(rows);
    expect(m.twrNet).toBe(0.155);
    expect(m.twrNetAnnualized).toBeCloseTo(0.10112327, 8);
    expect(m.mwrAnnualized).toBeCloseTo(0.10112327, 8);
  });
  test('a period of less than a year is not', () => {
    // 181 days: 115,500 / 110,000 − 1 = 5 %
    const m = run(rows, '2026-01-01');
    expect(m).toMatchObject({ twrNet: 0.05, twrNetAnnualized: null, twrGrossAnnualized: null, mwrAnnualized: null });
  });
});

describe('a period that begins before the first value', () => {
  test('begins at the close of the first valuation date, whose flows fall before it, and says so', () => {
    const m = run([['2026-02-10', 80_000, 80_000], ['2026-03-31', 84_000]], '2026-01-01', '2026-03-31');
    expect(isoOf(m.startDay)).toBe('2026-02-10');
    expect(m).toMatchObject({ inception: true, beginningValue: 80_000, netFlows: 0, twrNet: 0.05, mwr: 0.05 });
  });
});

describe('a household with a transfer between its accounts', () => {
  test('the transfer nets to zero and the household return is that of the summed values', () => {
    const a = history([['2025-12-31', 60_000], ['2026-01-01', 50_500, -10_000]]); // 50,500 / 50,000 − 1 = 1 %
    const b = history([['2025-12-31', 40_000], ['2026-01-01', 50_000, 10_000]]); //  50,000 / 50,000 − 1 = 0 %
    const household = aggregateHistory([a, b]);
    const m = measure(household) as Measurement;
    // (50,500 + 50,000) / (60,000 + 40,000) − 1 = 0.5 %, flows −10,000 + 10,000 = 0
    expect(m).toMatchObject({ twrNet: 0.005, mwr: 0.005, netFlows: 0, beginningValue: 100_000, endingValue: 100_500 });
  });
  test('a member without a value that day counts its last value plus flows less fees since', () => {
    const daily = history([['2026-01-30', 10_000], ['2026-01-31', 10_100]]);
    const monthly = history([['2026-01-29', 5_000], ['2026-01-30', null, 1_000, 10], ['2026-01-31', 6_200]]);
    const sum = aggregateHistory([daily, monthly]);
    // 29 Jan: 0 + 5,000 (daily not yet valued); 30 Jan: 10,000 + (5,000 + 1,000 − 10); 31 Jan: 10,100 + 6,200
    expect(sum.map((h) => h.value)).toEqual([5_000, 15_990, 16_300]);
    expect(sum.map((h) => h.flow)).toEqual([0, 1_000, 0]);
  });
});

describe('the standard periods', () => {
  // Month-end values growing 1 % a month from 31 Jan 2024, and a last value on 15 May 2026 0.5 % above April's.
  const rows: Row[] = [];
  let value = 100_000;
  for (let k = 0; k <= 27; k++) {
    const end = new Date(Date.UTC(2024, 1 + k, 0)).toISOString().slice(0, 10);
    rows.push([end, value]);
    value *= 1.01;
  }
  rows.push(['2026-05-15', (rows[27]?.[1] as number) * 1.005]);
  test('MTD, QTD, YTD, 1Y and ITD end at the last value; 3Y and 5Y would begin before the first and are left out', () => {
    const periods = standardPeriods(history(rows), d('2026-05-15'));
    const got = Object.fromEntries(periods.map((p) => [p.period, [isoOf(p.measurement.startDay), p.measurement.twrNet]]));
    expect(got).toEqual({
      MTD: ['2026-05-01', 0.005], //                     from the close of 30 Apr
      QTD: ['2026-04-01', 0.01505], //                   1.01 × 1.005 − 1
      YTD: ['2026-01-01', 0.04580703], //                1.01⁴ × 1.005 − 1
      '1Y': ['2025-05-16', 0.13245916], //               from 16 May 2025, measured from the close of 30 Apr 2025: 1.01¹² × 1.005 − 1
      ITD: ['2024-01-31', 0.31474992], //                1.01²⁷ × 1.005 − 1
    });
  });
  test('one year before 29 February is 28 February', () => {
    expect(isoOf(yearsBefore(d('2028-02-29'), 1))).toBe('2027-02-28');
  });
});

describe('benchmark', () => {
  test("the model's targets rebalanced daily, cash at 0 %", () => {
    const lines = [
      { weight: 0.6, prices: [{ day: d('2026-01-01'), price: 100 }, { day: d('2026-01-02'), price: 110 }, { day: d('2026-01-03'), price: 99 }] },
      { weight: 0.3, prices: [{ day: d('2025-12-01'), price: 50 }, { day: d('2026-01-03'), price: 51 }] },
    ];
    // day 2: 0.6 × 10 % = 6 %; day 3: 0.6 × −10 % + 0.3 × 2 % = −5.4 %; 1.06 × 0.946 − 1 = 0.276 %
    expect(benchmarkReturn(lines, d('2026-01-01'), d('2026-01-03'))).toBeCloseTo(0.00276, 12);
    // a target without a price on or before the start: no benchmark
    expect(benchmarkReturn(lines, d('2025-12-15'), d('2026-01-03'))).toBeNull();
  });
});

describe('daily series', () => {
  test('one point per valuation date, cumulative TWR linked from the first', async () => {
    const { dailySeries } = await import('./returns.js');
    const h = history([['2026-01-31', 100_000], ['2026-02-15', null, 20_000], ['2026-02-28', 123_000], ['2026-03-31', 129_150]]);
    const m = measure(h) as Measurement;
    // 3,000 / 110,000 then 129,150 / 123,000 − 1 = 5 %: 1.02727273 × 1.05 − 1 = 7.8636364 %
    expect(dailySeries(h, m).map((p) => [isoOf(p.day), p.flow, p.twrNetCumulative])).toEqual([
      ['2026-01-31', 0, 0],
      ['2026-02-28', 20_000, 0.02727273],
      ['2026-03-31', 0, 0.07863636],
    ]);
  });
});
