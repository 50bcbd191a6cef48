// The worked examples of docs/rebalancing.md, one per rebalance type. If one of
// these changes, the document changes with it.
import { describe, expect, test } from 'vitest';
import { rebalanceAccount, SellPriority, type AccountResult } from './index.js';
import { AAPL, account, BND, model, rows, VTI } from './scenarios/fixtures.js';

const m = model([[VTI, 60, 5], [BND, 35, 5]], 5);

function after(r: AccountResult): Record<string, number> {
  const out: Record<string, number> = {};
  for (const w of r.weights) out[w.ticker] = Number(w.weightAfter.toFixed(2));
  out.cash = Number(r.cash.weightAfter.toFixed(2));
  return out;
}

describe('docs/rebalancing.md worked examples', () => {
  test('Example 1, NeedReview', () => {
    const r = rebalanceAccount(account([[VTI, 400], [BND, 200]], 4000, m), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Sell VTI 100 @200 = 20000', 'Buy BND 237 @80 = 18960']);
    expect(after(r)).toEqual({ VTI: 60, BND: 34.96, cash: 5.04 });
  });

  test('Example 2, Withdraw', () => {
    const r = rebalanceAccount(account([[VTI, 310], [BND, 412.5]], 5000, m), { reason: 'Withdraw', amount: 10000 });
    expect(rows(r)).toEqual(['Sell BND 37 @80 = 2960', 'Sell VTI 36 @200 = 7200']);
    expect(r.cash.after).toBe(15160);
    // Weights of what stays invested once the 10,000 has left the account.
    const invested = r.investableValue - 10000;
    expect(r.weights.map((w) => [w.ticker, Number(((w.valueAfter / invested) * 100).toFixed(2))])).toEqual([
      ['BND', 33.38],
      ['VTI', 60.89],
    ]);
  });

  test('Example 3, Add', () => {
    const r = rebalanceAccount(account([[VTI, 290], [BND, 425]], 5000, m), { reason: 'Add', amount: 10000 });
    expect(rows(r)).toEqual(['Buy BND 21 @80 = 1680', 'Buy VTI 16 @200 = 3200']);
    expect(after(r)).toEqual({ VTI: 60, BND: 34.98, cash: 5.02 });
  });

  test('Example 4, Withdraw100Pct', () => {
    const dns = model([[VTI, 60, 5], [BND, 35, 5], [AAPL, 0, 0, { sellPriority: SellPriority.DoNotSell }]], 5);
    const r = rebalanceAccount(account([[VTI, 10.5], [BND, 100], [AAPL, 5]], 100, dns), { reason: 'Withdraw100Pct' });
    expect(rows(r)).toEqual(['Sell BND 100 @80 = 8000', 'Sell VTI 10.5 @200 = 2100']);
    expect(r.messages.map((x) => x.message)).toEqual(['AAPL is Do Not Sell; 5 shares kept']);
    expect(r.cash.after).toBe(10200);
  });
});
