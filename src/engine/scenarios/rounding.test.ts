// roundingLogic: Default (whole shares for equities and ETFs, 3 decimals for mutual funds),
// LowestPrice (round up the cheapest equity buy while cash allows), None (partial shares).
import { describe, expect, test } from 'vitest';
import { rebalanceAccount } from '../index.js';
import { AAPL, account, GE, model, rows, VFIAX, VTI } from './fixtures.js';

const equities = model([[AAPL, 30, 1], [GE, 30, 1], [VTI, 35, 1]], 5);

describe('roundingLogic', () => {
  test('Default: whole shares for ETFs, three decimals for a mutual fund, rounded down', () => {
    const m = model([[VTI, 45, 1], [VFIAX, 50, 1]], 5);
    const r = rebalanceAccount(account([], 10000, m), { reason: 'NeedReview', roundingLogic: 'Default' });
    expect(rows(r)).toEqual(['Buy VFIAX 11.111 @450 = 4999.95', 'Buy VTI 22 @200 = 4400']);
  });

  test('Default: equities round down, leaving the remainder in cash', () => {
    const r = rebalanceAccount(account([], 10100, equities), { reason: 'NeedReview', roundingLogic: 'Default' });
    expect(rows(r)).toEqual(['Buy AAPL 20 @150 = 3000', 'Buy GE 303 @10 = 3030', 'Buy VTI 17 @200 = 3400']);
  });

  test('LowestPrice: the cheapest rounded-down equity buy gets one more share while cash allows', () => {
    const r = rebalanceAccount(account([], 10100, equities), { reason: 'NeedReview', roundingLogic: 'LowestPrice' });
    expect(rows(r)).toEqual(['Buy AAPL 21 @150 = 3150', 'Buy GE 303 @10 = 3030', 'Buy VTI 17 @200 = 3400']);
  });

  test('None: partial shares (six decimals)', () => {
    const r = rebalanceAccount(account([], 10100, equities), { reason: 'NeedReview', roundingLogic: 'None' });
    expect(rows(r)).toEqual(['Buy AAPL 20.2 @150 = 3030', 'Buy GE 303 @10 = 3030', 'Buy VTI 17.675 @200 = 3535']);
  });

  test('a sell to zero sells every share, fractions included, under any rounding', () => {
    const m = model([[VTI, 95, 5]], 5);
    for (const roundingLogic of ['Default', 'LowestPrice', 'None'] as const) {
      const r = rebalanceAccount(account([[VTI, 475], [AAPL, 2.123456789]], 0, m), { reason: 'NeedReview', roundingLogic });
      expect(r.trades.find((t) => t.ticker === 'AAPL')?.shares).toBe(2.123456789);
    }
  });
});
