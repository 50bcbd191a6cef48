// Invariants of the return rules over generated daily histories.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { aggregateHistory } from './aggregate.js';
import { measure, type HistoryDay, type Measurement } from './returns.js';

const START = 20_000; // a day number (2024-10-04); the rules only see differences

/** A daily history built from each day's return and the flows at its start: V_d = (V_{d−1} + F_d)·(1 + r_d). */
interface Generated { history: HistoryDay[]; dayReturns: number[] }

const dayArb = fc.record({
  r: fc.double({ min: -0.05, max: 0.05, noNaN: true }),
  flow: fc.oneof(fc.constant(0), fc.constant(0), fc.double({ min: -0.5, max: 1, noNaN: true })),
});

const historyArb: fc.Arbitrary<Generated> = fc
  .record({ start: fc.double({ min: 1_000, max: 1e7, noNaN: true }), days: fc.array(dayArb, { minLength: 2, maxLength: 400 }) })
  .map(({ start, days }) => {
    const history: HistoryDay[] = [{ day: START, value: start, flow: 0, fee: 0, income: 0 }];
    let value = start;
    days.forEach(({ r, flow }, i) => {
      // A flow is a fraction of the value: withdrawals never take more than half of it.
      const amount = Math.round(flow * value * 100) / 100;
      value = (value + amount) * (1 + r);
      history.push({ day: START + i + 1, value, flow: amount, fee: 0, income: 0 });
    });
    return { history, dayReturns: days.map((x) => x.r) };
  });

const m = (h: HistoryDay[], s?: number, e?: number): Measurement => measure(h, s, e) as Measurement;

describe('properties of the returns', () => {
  test('linking sub-periods gives the whole', () => {
    fc.assert(
      fc.property(historyArb, fc.double({ min: 0, max: 1, noNaN: true }), ({ history }, at) => {
        const last = (history[history.length - 1] as HistoryDay).day;
        const split = START + 1 + Math.floor(at * (last - START - 1));
        const whole = m(history, START + 1, last).twrNet as number;
        const first = m(history, START + 1, split).twrNet as number;
        const second = m(history, split + 1, last).twrNet as number;
        expect((1 + first) * (1 + second) - 1).toBeCloseTo(whole, 6);
      }),
    );
  });

  test('with no flows TWR = MWR = end / start − 1', () => {
    fc.assert(
      fc.property(historyArb, ({ history }) => {
        const still = history.map((h) => ({ ...h, flow: 0 }));
        const res = m(still);
        const expected = (still[still.length - 1]?.value as number) / (still[0]?.value as number) - 1;
        expect(res.twrNet).toBeCloseTo(expected, 7);
        expect(res.twrGross).toBeCloseTo(expected, 7);
        expect(res.mwr).toBeCloseTo(expected, 7);
      }),
    );
  });

  test("a flow at a day's start never changes that day's TWR", () => {
    fc.assert(
      fc.property(historyArb, ({ history, dayReturns }) => {
        history.slice(1).forEach((h, i) => {
          expect(m(history, h.day, h.day).twrNet).toBeCloseTo(dayReturns[i] as number, 7);
        });
        const linked = dayReturns.reduce((g, r) => g * (1 + r), 1) - 1;
        expect(m(history).twrNet).toBeCloseTo(linked, 6);
      }),
      { numRuns: 200 },
    );
  });

  test('the household of one account equals the account', () => {
    fc.assert(
      fc.property(historyArb, fc.double({ min: 0, max: 1, noNaN: true }), ({ history }, at) => {
        // Money is stored in whole cents, so the aggregate's sums are exact there: the generated
        // history is rounded to whole units as the database holds it (with fractions, summing
        // 1000 + (480.44… − 1000) differs from 480.44… in the last bit). Thinned to month-end-like
        // valuations so the aggregate's carried values are exercised.
        const sparse = history.map((h, i) => ({ ...h, value: i % 7 === 3 ? null : Math.round(h.value as number), flow: Math.round(h.flow) }));
        const last = (sparse[sparse.length - 1] as HistoryDay).day;
        const start = START + Math.floor(at * (last - START));
        expect(m(aggregateHistory([sparse]), start)).toEqual(m(sparse, start));
      }),
    );
  });
});
