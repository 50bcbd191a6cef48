// useProductSubstitution: substitutions replace model products before trading.
import { describe, expect, test } from 'vitest';
import { rebalanceAccount, type Substitution } from '../index.js';
import { account, BND, codes, ITOT, model, rows, SCHB, VTI, VXUS } from './fixtures.js';

const m = model([[VTI, 60, 5], [BND, 35, 5]], 5);
const firmVtiToSchb: Substitution = { id: 11, productId: VTI.id, substituteProductId: SCHB.id, scope: 'Firm' };
const accountVtiToItot: Substitution = { id: 12, productId: VTI.id, substituteProductId: ITOT.id, scope: 'Account' };
const snap = account([[VTI, 100]], 80000, m, { substitutions: [firmVtiToSchb, accountVtiToItot] });
const messages = (r: ReturnType<typeof rebalanceAccount>) => r.messages.map((x) => `${x.code}: ${x.message}`);

describe('product substitution', () => {
  test('Use: the account substitution wins over the firm one; the replaced product is sold; the message names the substitution', () => {
    const r = rebalanceAccount(snap, { reason: 'NeedReview', useProductSubstitution: 'Use' });
    expect(rows(r)).toEqual(['Sell VTI 100 @200 = 20000', 'Buy BND 437 @80 = 34960', 'Buy ITOT 600 @100 = 60000']);
    expect(messages(r)).toEqual(['SUBSTITUTED: VTI replaced by ITOT (account substitution 12)']);
  });

  test('Use, without the account substitution: the firm one applies and is named', () => {
    const r = rebalanceAccount({ ...snap, substitutions: [firmVtiToSchb] }, { reason: 'NeedReview', useProductSubstitution: 'Use' });
    expect(rows(r)).toEqual(['Sell VTI 100 @200 = 20000', 'Buy BND 437 @80 = 34960', 'Buy SCHB 1200 @50 = 60000']);
    expect(messages(r)).toEqual(['SUBSTITUTED: VTI replaced by SCHB (firm substitution 11)']);
  });

  test('Ignore: the model is traded as it is', () => {
    const r = rebalanceAccount(snap, { reason: 'NeedReview', useProductSubstitution: 'Ignore' });
    expect(rows(r)).toEqual(['Buy BND 437 @80 = 34960', 'Buy VTI 200 @200 = 40000']);
    expect(codes(r)).toEqual([]);
  });

  test('a substitute\'s own substitute is never followed: VTI ends on SCHB, not on VXUS', () => {
    // The routes and the import refuse such a chain; rows written by hand before the rule keep this reading.
    const chained = account([], 100000, m, { substitutions: [firmVtiToSchb, { id: 13, productId: SCHB.id, substituteProductId: VXUS.id, scope: 'Firm' }] });
    const r = rebalanceAccount(chained, { reason: 'NeedReview', useProductSubstitution: 'Use' });
    expect(rows(r)).toEqual(['Buy BND 437 @80 = 34960', 'Buy SCHB 1200 @50 = 60000']);
    expect(messages(r)).toEqual(['SUBSTITUTED: VTI replaced by SCHB (firm substitution 11)']);
  });

  test('once the substitution is gone, the next rebalance buys the model product back', () => {
    const held = account([[ITOT, 600], [BND, 437]], 5040, m, { substitutions: [] });
    const r = rebalanceAccount(held, { reason: 'NeedReview', useProductSubstitution: 'Use' });
    expect(rows(r)).toEqual(['Sell ITOT 600 @100 = 60000', 'Buy VTI 300 @200 = 60000']);
    expect(codes(r)).toEqual([]);
  });
});
