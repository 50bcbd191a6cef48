// Withdraw: raise the amount in cash, overweight products first, then pro rata to targets.
import { describe, expect, test } from 'vitest';
import { rebalanceAccount } from '../index.js';
import { account, BND, codes, model, rows, VTI } from './fixtures.js';

const m = model([[VTI, 60, 5], [BND, 35, 5]], 5);

describe('Withdraw', () => {
  test('sells the overweight product to target, then the rest pro rata to targets', () => {
    // VTI 62% (2,000 over), BND 33%, cash 5,000 = target; withdraw 10,000.
    const r = rebalanceAccount(account([[VTI, 310], [BND, 412.5]], 5000, m), { reason: 'Withdraw', amount: 10000 });
    expect(rows(r)).toEqual(['Sell BND 37 @80 = 2960', 'Sell VTI 36 @200 = 7200']);
    expect(r.trades.map((t) => t.reason)).toEqual(['withdraw $10,000.00: pro rata to target BND 35.0%', 'withdraw $10,000.00: overweight VTI 62.0% vs 60.0%']);
    expect(r.cash.target).toBe(15000);
    expect(r.cash.after).toBe(15160);
  });

  test('cash that already covers the withdrawal sells nothing', () => {
    const r = rebalanceAccount(account([[VTI, 300], [BND, 300]], 20000, m), { reason: 'Withdraw', amount: 10000 });
    expect(rows(r)).toEqual([]);
    expect(codes(r)).toEqual(['Info:WITHDRAW_COVERED']);
  });

  test('never buys, even when products are underweight', () => {
    const r = rebalanceAccount(account([[VTI, 100]], 80000, m), { reason: 'Withdraw', amount: 1000 });
    expect(r.trades.every((t) => t.side === 'Sell')).toBe(true);
    expect(rows(r)).toEqual([]);
  });
});
