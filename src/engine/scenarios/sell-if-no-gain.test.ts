// Sell priority 3 Sell If No Gain: sold only when the price is at or below cost.
import { describe, expect, test } from 'vitest';
import { rebalanceAccount, SellPriority, type AccountSnapshot } from '../index.js';
import { account, BND, model, rows, VTI } from './fixtures.js';

const m = model([[VTI, 50, 5, { sellPriority: SellPriority.SellIfNoGain }], [BND, 45, 5]], 5);

function withVti(costBasis: number | null, taxLots?: AccountSnapshot['positions'][number]['taxLots']): AccountSnapshot {
  const base = account([[BND, 300]], 6000, m);
  return { ...base, positions: [{ productId: VTI.id, shares: 350, costBasis, taxLots }, ...base.positions] };
}

describe('Sell If No Gain', () => {
  test('at a loss (cost 80,000 for 70,000 of value) it is sold to target', () => {
    const r = rebalanceAccount(withVti(80000), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Sell VTI 100 @200 = 20000', 'Buy BND 262 @80 = 20960']);
  });

  test('at a gain it is kept; the buy gets only the cash there is', () => {
    const r = rebalanceAccount(withVti(50000), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Buy BND 12 @80 = 960']);
  });

  test('with tax lots only the lots at a loss are sold', () => {
    // 60 shares bought at 220 (loss), 290 at 150 (gain).
    const r = rebalanceAccount(withVti(56700, [{ shares: 60, costBasis: 13200 }, { shares: 290, costBasis: 43500 }]), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Sell VTI 60 @200 = 12000', 'Buy BND 162 @80 = 12960']);
  });
});
