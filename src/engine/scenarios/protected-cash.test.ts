// Protected (set aside) cash: dollars or a percent of a base, clamped, until it expires; never spent by a buy.
import { describe, expect, test } from 'vitest';
import { protectedCash, rebalanceAccount, type SetAsideCash } from '../index.js';
import { account, BND, model, rows, VTI } from './fixtures.js';

const m = model([[VTI, 60, 5], [BND, 35, 5]], 5);
const balanced = (setAsideCash: SetAsideCash[], extra = {}) => account([[VTI, 300], [BND, 437.5]], 5000, m, { setAsideCash, ...extra });
const dollars = (cashAmount: number, more: Partial<SetAsideCash> = {}): SetAsideCash => ({ id: 1, cashAmountTypeId: 1, cashAmount, expirationTypeId: 3, ...more });
const percent = (cashAmount: number, more: Partial<SetAsideCash> = {}): SetAsideCash => ({ id: 2, cashAmountTypeId: 2, cashAmount, expirationTypeId: 3, ...more });
// Protecting 10,000 of 100,000: targets apply to 90,000, so VTI (54,000) is out of band and BND gives the rest.
const RAISE_10000 = ['Sell BND 44 @80 = 3520', 'Sell VTI 30 @200 = 6000'];

describe('protected cash', () => {
  test('in dollars: raised by selling, then kept out of the investable value', () => {
    const r = rebalanceAccount(balanced([dollars(10000)]), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(RAISE_10000);
    expect(r.cash.protected).toBe(10000);
    expect(r.cash.target).toBe(14500);
    expect(r.cash.after).toBeGreaterThanOrEqual(14500);
  });

  test('in percent of the managed value', () => {
    expect(rows(rebalanceAccount(balanced([percent(10)]), { reason: 'NeedReview' }))).toEqual(RAISE_10000);
  });

  test('percent of the total value (managed plus excluded), clamped to the maximum', () => {
    // 10% of 150,000 = 15,000, clamped to 10,000.
    const r = rebalanceAccount(balanced([percent(10, { percentCalculationTypeId: 1, maxCashAmount: 10000 })], { excludedValue: 50000 }), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(RAISE_10000);
  });

  test('percent of the excluded value, raised to the minimum', () => {
    // 10% of 50,000 = 5,000, raised to the 10,000 minimum.
    const snap = balanced([percent(10, { percentCalculationTypeId: 2, minCashAmount: 10000 })], { excludedValue: 50000 });
    expect(rows(rebalanceAccount(snap, { reason: 'NeedReview' }))).toEqual(RAISE_10000);
  });

  test('an expired record protects nothing', () => {
    const expiredByDate = dollars(10000, { expirationTypeId: 1, expirationDate: '2024-06-27' });
    const expiredByTransaction = dollars(10000, { expirationTypeId: 2, isExpired: true });
    expect(rows(rebalanceAccount(balanced([expiredByDate, expiredByTransaction]), { reason: 'NeedReview' }))).toEqual([]);
    const lastDay = dollars(10000, { expirationTypeId: 1, expirationDate: '2024-06-28' });
    expect(protectedCash([lastDay], '2024-06-28', { managed: 1, excluded: 0 })).toBe(10000);
  });

  test('a buy never spends protected cash', () => {
    const r = rebalanceAccount(account([], 100000, m, { setAsideCash: [dollars(40000)] }), { reason: 'NeedReview' });
    // Investable 60,000: VTI 36,000, BND 21,000, cash target 3,000 + 40,000.
    expect(rows(r)).toEqual(['Buy BND 262 @80 = 20960', 'Buy VTI 180 @200 = 36000']);
    expect(r.cash.after).toBe(43040);
  });
});
