// assetValues and includeCustodialCash decide which cash and pending items are counted.
import { describe, expect, test } from 'vitest';
import { rebalanceAccount, tradesAsOpenOrders } from '../index.js';
import { account, BND, model, rows, VTI } from './fixtures.js';

const m = model([[VTI, 60, 5], [BND, 35, 5]], 5);
const drifted = account([[VTI, 400], [BND, 200]], 4000, m);
const FIRST = ['Sell VTI 100 @200 = 20000', 'Buy BND 237 @80 = 18960'];

describe('assetValues', () => {
  test('open orders of the first run count: running it again gives no new trades', () => {
    const first = rebalanceAccount(drifted, { reason: 'NeedReview' });
    expect(rows(first)).toEqual(FIRST);
    const again = { ...drifted, openOrders: tradesAsOpenOrders(first) };
    expect(rows(rebalanceAccount(again, { reason: 'NeedReview', assetValues: 'PendingTransactionsAndOrders' }))).toEqual([]);
    expect(rows(rebalanceAccount(again, { reason: 'NeedReview', assetValues: 'Pending' }))).toEqual(FIRST);
    expect(rows(rebalanceAccount(again, { reason: 'NeedReview', assetValues: 'Current' }))).toEqual(FIRST);
    expect(rows(rebalanceAccount({ ...again, firmDefaultAssetValues: 'Current' }, { reason: 'NeedReview', assetValues: 'UseDefault' }))).toEqual(FIRST);
  });

  test('a pending deposit counts with Pending, not with Current', () => {
    const snap = { ...account([[VTI, 300], [BND, 437.5]], 5000, m), pendingTransactions: [{ productId: null, shares: 0, cash: 10000 }] };
    expect(rows(rebalanceAccount(snap, { reason: 'NeedReview', assetValues: 'Pending' }))).toEqual(['Buy BND 43 @80 = 3440', 'Buy VTI 30 @200 = 6000']);
    expect(rows(rebalanceAccount(snap, { reason: 'NeedReview', assetValues: 'Current' }))).toEqual([]);
  });

  test('includeCustodialCash = false leaves the cash balance out of the account', () => {
    // Without the 40,000 cash, VTI is 62.5% and BND 37.5% of 96,000, both within band and
    // 2,400 over target; cash 0 is 4,800 short of its 5% target, so both are sold to target.
    const snap = account([[VTI, 300], [BND, 450]], 40000, m);
    expect(rows(rebalanceAccount(snap, { reason: 'NeedReview', includeCustodialCash: false }))).toEqual(['Sell BND 30 @80 = 2400', 'Sell VTI 12 @200 = 2400']);
    expect(rows(rebalanceAccount(snap, { reason: 'NeedReview' }))).toEqual(['Buy BND 145 @80 = 11600', 'Buy VTI 108 @200 = 21600']);
  });
});
