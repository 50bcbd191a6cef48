// NeedReview: out-of-tolerance products go back to target; products inside their band stay.
import { describe, expect, test } from 'vitest';
import { rebalanceAccount } from '../index.js';
import { account, AAPL, BND, model, rows, VTI } from './fixtures.js';

const m = model([[VTI, 60, 5], [BND, 35, 5]], 5);

describe('NeedReview', () => {
  test('sells the overweight product and buys the underweight one back to target', () => {
    // VTI 80% (band 55-65), BND 16% (band 30-40), cash 4% of $100,000.
    const r = rebalanceAccount(account([[VTI, 400], [BND, 200]], 4000, m), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Sell VTI 100 @200 = 20000', 'Buy BND 237 @80 = 18960']);
    expect(r.trades.map((t) => t.reason)).toEqual(['out of tolerance: VTI 80.0% vs 60.0% ±5.0', 'out of tolerance: BND 16.0% vs 35.0% ±5.0']);
    expect(r.cash.after).toBe(5040);
    expect(r.weights.map((w) => [w.ticker, w.weightBefore, Number(w.weightAfter.toFixed(2))])).toEqual([
      ['BND', 16, 34.96],
      ['VTI', 80, 60],
    ]);
  });

  test('leaves every product inside its band alone', () => {
    const r = rebalanceAccount(account([[VTI, 310], [BND, 412.5]], 5000, m), { reason: 'NeedReview' });
    expect(rows(r)).toEqual([]);
  });

  test('exactTrades trades every product to its exact target, ignoring tolerances', () => {
    const r = rebalanceAccount(account([[VTI, 310], [BND, 412.5]], 5000, m), { reason: 'NeedReview', exactTrades: true });
    expect(rows(r)).toEqual(['Sell VTI 10 @200 = 2000', 'Buy BND 25 @80 = 2000']);
    expect(r.trades[0]?.reason).toBe('exact trade to target: VTI 62.0% vs 60.0%');
  });

  test('cash below target: the overweight product inside its band is sold', () => {
    // All in band, cash 4% against a 5% target.
    const r = rebalanceAccount(account([[VTI, 310], [BND, 425]], 4000, m), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Sell VTI 5 @200 = 1000']);
    expect(r.trades[0]?.reason).toBe('cash below target: sell overweight VTI 62.0% vs 60.0%');
  });

  test('cash in excess: the most underweight products inside their band are bought', () => {
    const r = rebalanceAccount(account([[VTI, 290], [BND, 425]], 8000, m), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Buy BND 12 @80 = 960', 'Buy VTI 10 @200 = 2000']);
    expect(r.trades[1]?.reason).toBe('excess cash: buy underweight VTI 58.0% vs 60.0%');
  });

  test('a holding outside the model is sold in full, and the cash it frees is invested', () => {
    const r = rebalanceAccount(account([[VTI, 300], [BND, 422.5], [AAPL, 3.5]], 4675, m), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Sell AAPL 3.5 @150 = 525', 'Buy BND 3 @80 = 240']);
    expect(r.trades[0]?.reason).toBe('not in model: AAPL 0.5% vs 0.0%');
    expect(r.trades[1]?.reason).toBe('excess cash: buy underweight BND 34.1% vs 35.0%');
  });
});
