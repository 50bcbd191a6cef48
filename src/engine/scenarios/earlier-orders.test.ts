// Earlier orders that shape a run are named: which trade instance, and how much was counted.
import { describe, expect, test } from 'vitest';
import { rebalanceAccount, tradesAsOpenOrders, type AccountResult } from '../index.js';
import { account, BND, model, rows, VTI } from './fixtures.js';

const m = model([[VTI, 60, 5], [BND, 35, 5]], 5);
const drifted = account([[VTI, 400], [BND, 200]], 4000, m);
const FIRST = ['Sell VTI 100 @200 = 20000', 'Buy BND 237 @80 = 18960'];
const counted = (r: AccountResult) => r.messages.filter((x) => x.code === 'EARLIER_ORDERS_COUNTED').map((x) => `${x.severity}: ${x.message}`);

describe('earlier orders counted', () => {
  test('a second run over the first run\'s open orders trades nothing and says which instance it counted', () => {
    const first = rebalanceAccount(drifted, { reason: 'NeedReview' });
    expect(rows(first)).toEqual(FIRST);
    expect(counted(first)).toEqual([]);
    const again = rebalanceAccount({ ...drifted, openOrders: tradesAsOpenOrders(first, 12) }, { reason: 'NeedReview' });
    expect(rows(again)).toEqual([]);
    expect(counted(again)).toEqual(['Info: 2 open orders of trade instance 12 counted as executed: buys $18,960.00, sells $20,000.00']);
  });

  test('orders of two instances and a sleeve transfer: one line per instance, in instance order', () => {
    const first = rebalanceAccount(drifted, { reason: 'NeedReview' });
    const [sell, buy] = tradesAsOpenOrders(first);
    const openOrders = [{ ...buy!, tradeInstanceId: 31 }, { ...sell!, tradeInstanceId: 30 }, { productId: null, shares: 0, cash: -500, tradeInstanceId: 31 }];
    const r = rebalanceAccount({ ...drifted, openOrders }, { reason: 'NeedReview' });
    expect(counted(r)).toEqual([
      'Info: 1 open order of trade instance 30 counted as executed: sells $20,000.00',
      'Info: 2 open orders of trade instance 31 counted as executed: buys $18,960.00, cash out $500.00',
    ]);
  });

  test('a pending deposit shapes the buys and is named; with assetValues Current nothing is counted or said', () => {
    const snap = { ...account([[VTI, 300], [BND, 437.5]], 5000, m), pendingTransactions: [{ productId: null, shares: 0, cash: 10000 }] };
    const pending = rebalanceAccount(snap, { reason: 'NeedReview', assetValues: 'Pending' });
    expect(rows(pending)).toEqual(['Buy BND 43 @80 = 3440', 'Buy VTI 30 @200 = 6000']);
    expect(counted(pending)).toEqual(['Info: 1 pending transaction counted as settled: cash in $10,000.00']);
    const current = rebalanceAccount(snap, { reason: 'NeedReview', assetValues: 'Current' });
    expect(rows(current)).toEqual([]);
    expect(counted(current)).toEqual([]);
  });

  test('orders that are not counted (assetValues Pending) are not mentioned: the first run\'s trades come again', () => {
    const first = rebalanceAccount(drifted, { reason: 'NeedReview' });
    const r = rebalanceAccount({ ...drifted, openOrders: tradesAsOpenOrders(first, 12) }, { reason: 'NeedReview', assetValues: 'Pending' });
    expect(rows(r)).toEqual(FIRST);
    expect(counted(r)).toEqual([]);
  });
});
