// Restricted plans: the account buys only plan securities; a model product
// outside the plan moves to its first equivalent in the plan, else its weight stays in cash.
import { describe, expect, test } from 'vitest';
import { rebalanceAccount, type RestrictedPlan } from '../index.js';
import { account, BND, codes, ITOT, model, rows, VTI } from './fixtures.js';

const m = model([[VTI, 60, 5, { equivalents: [ITOT.id] }], [BND, 35, 5]], 5);
const plan = (ids: number[]): RestrictedPlan => ({ id: 7, name: '401k menu', securities: ids.map((productId) => ({ productId })) });

describe('restricted plan', () => {
  test('with an equivalent in the plan: the equivalent is bought instead', () => {
    const r = rebalanceAccount(account([], 100000, m, { restrictedPlan: plan([ITOT.id, BND.id]) }), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Buy BND 437 @80 = 34960', 'Buy ITOT 600 @100 = 60000']);
  });

  test('without an equivalent in the plan: the weight stays in cash, with a warning', () => {
    const r = rebalanceAccount(account([], 100000, m, { restrictedPlan: plan([BND.id]) }), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Buy BND 437 @80 = 34960']);
    expect(codes(r)).toEqual(['Warning:PLAN_NO_EQUIVALENT']);
    expect(r.cash.targetPercent).toBe(65);
  });

  test('doNotBuyGroupEquivalency: an account without a plan does not buy a flagged security', () => {
    const r = rebalanceAccount(account([], 100000, m, { doNotBuyGroupEquivalency: [VTI.id] }), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Buy BND 437 @80 = 34960', 'Buy ITOT 600 @100 = 60000']);
  });

  test('doNotBuyGroupEquivalency does not bind an account that has a plan', () => {
    const r = rebalanceAccount(account([], 100000, m, { doNotBuyGroupEquivalency: [VTI.id], restrictedPlan: plan([VTI.id, BND.id]) }), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Buy BND 437 @80 = 34960', 'Buy VTI 300 @200 = 60000']);
  });
});
