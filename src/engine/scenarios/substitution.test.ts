// useProductSubstitution: substitutions replace model products before trading.
import { describe, expect, test } from 'vitest';
import { rebalanceAccount } from '../index.js';
import { account, BND, codes, ITOT, model, rows, SCHB, VTI } from './fixtures.js';

const m = model([[VTI, 60, 5], [BND, 35, 5]], 5);
const snap = account([[VTI, 100]], 80000, m, {
  substitutions: [
    { productId: VTI.id, substituteProductId: SCHB.id, scope: 'Firm' },
    { productId: VTI.id, substituteProductId: ITOT.id, scope: 'Account' },
  ],
});

describe('product substitution', () => {
  test('Use: the account substitution wins over the firm one; the replaced product is sold', () => {
    const r = rebalanceAccount(snap, { reason: 'NeedReview', useProductSubstitution: 'Use' });
    expect(rows(r)).toEqual(['Sell VTI 100 @200 = 20000', 'Buy BND 437 @80 = 34960', 'Buy ITOT 600 @100 = 60000']);
    expect(codes(r)).toEqual(['Info:SUBSTITUTED']);
  });

  test('Ignore: the model is traded as it is', () => {
    const r = rebalanceAccount(snap, { reason: 'NeedReview', useProductSubstitution: 'Ignore' });
    expect(rows(r)).toEqual(['Buy BND 437 @80 = 34960', 'Buy VTI 200 @200 = 40000']);
  });
});
