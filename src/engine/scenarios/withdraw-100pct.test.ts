// Withdraw100Pct: every position sold to zero; Do Not Sell is kept with a warning.
import { describe, expect, test } from 'vitest';
import { rebalanceAccount, SellPriority } from '../index.js';
import { AAPL, account, BND, codes, model, rows, VTI } from './fixtures.js';

describe('Withdraw100Pct', () => {
  test('sells every share, fractions included, and keeps Do Not Sell', () => {
    const m = model([[VTI, 60, 5], [BND, 35, 5], [AAPL, 0, 0, { sellPriority: SellPriority.DoNotSell }]], 5);
    const r = rebalanceAccount(account([[VTI, 10.5], [BND, 100], [AAPL, 5]], 100, m), { reason: 'Withdraw100Pct' });
    expect(rows(r)).toEqual(['Sell BND 100 @80 = 8000', 'Sell VTI 10.5 @200 = 2100']);
    expect(r.trades[0]?.reason).toBe('withdraw 100%: sell all BND');
    expect(codes(r)).toEqual(['Warning:DO_NOT_SELL_KEPT']);
  });

  test('works without a model: closing an account needs no targets', () => {
    const r = rebalanceAccount(account([[VTI, 3]], 0, null), { reason: 'Withdraw100Pct' });
    expect(rows(r)).toEqual(['Sell VTI 3 @200 = 600']);
    expect(r.hasError).toBe(false);
  });
});
