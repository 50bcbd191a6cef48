// Buy priority 4 Buy To Target: bought up to its target, never above (no rounding up past it).
import { describe, expect, test } from 'vitest';
import { BuyPriority, rebalanceAccount } from '../index.js';
import { account, BND, GE, model, rows } from './fixtures.js';

describe('Buy To Target', () => {
  test('LowestPrice does not round a Buy To Target product above its target', () => {
    const m = model([[GE, 50, 1, { buyPriority: BuyPriority.BuyToTarget }], [BND, 45, 1]], 5);
    const r = rebalanceAccount(account([], 1005, m), { reason: 'NeedReview', roundingLogic: 'LowestPrice' });
    expect(rows(r)).toEqual(['Buy BND 5 @80 = 400', 'Buy GE 50 @10 = 500']);
  });

  test('a Can Buy product is rounded up one share past its target', () => {
    const m = model([[GE, 50, 1], [BND, 45, 1]], 5);
    const r = rebalanceAccount(account([], 1005, m), { reason: 'NeedReview', roundingLogic: 'LowestPrice' });
    expect(rows(r)).toEqual(['Buy BND 5 @80 = 400', 'Buy GE 51 @10 = 510']);
  });
});
