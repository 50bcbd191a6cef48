// Sell priority 5 Sell To Target: sold down to its target, never below.
import { describe, expect, test } from 'vitest';
import { rebalanceAccount, SellPriority } from '../index.js';
import { account, BND, model, rows, VTI } from './fixtures.js';

describe('Sell To Target', () => {
  test('a withdrawal takes it to target and raises the rest from the others', () => {
    const m = model([[VTI, 60, 5, { sellPriority: SellPriority.SellToTarget }], [BND, 35, 5]], 5);
    const r = rebalanceAccount(account([[VTI, 310], [BND, 412.5]], 5000, m), { reason: 'Withdraw', amount: 10000 });
    expect(rows(r)).toEqual(['Sell BND 100 @80 = 8000', 'Sell VTI 10 @200 = 2000']);
  });

  test('Can Sell, for comparison, shares the rest pro rata', () => {
    const m = model([[VTI, 60, 5], [BND, 35, 5]], 5);
    const r = rebalanceAccount(account([[VTI, 310], [BND, 412.5]], 5000, m), { reason: 'Withdraw', amount: 10000 });
    expect(rows(r)).toEqual(['Sell BND 37 @80 = 2960', 'Sell VTI 36 @200 = 7200']);
  });
});
