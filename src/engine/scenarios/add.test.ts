// Add: spend the contribution on underweight products first, then pro rata to targets.
import { describe, expect, test } from 'vitest';
import { rebalanceAccount } from '../index.js';
import { account, BND, codes, model, rows, VTI } from './fixtures.js';

const m = model([[VTI, 60, 5], [BND, 35, 5]], 5);

describe('Add', () => {
  test('the amount larger than the cash raises the cash for the calculation; underweights are bought to target', () => {
    // Holdings 58,000 VTI + 34,000 BND, cash 5,000; add 10,000 (cash is raised to 10,000).
    const r = rebalanceAccount(account([[VTI, 290], [BND, 425]], 5000, m), { reason: 'Add', amount: 10000 });
    expect(rows(r)).toEqual(['Buy BND 21 @80 = 1680', 'Buy VTI 16 @200 = 3200']);
    expect(r.trades.map((t) => t.reason)).toEqual(['add $10,000.00: underweight BND 33.3% vs 35.0%', 'add $10,000.00: underweight VTI 56.9% vs 60.0%']);
    expect(codes(r)).toEqual(['Info:ADD_CASH_RAISED']);
    expect(r.cash.before).toBe(10000);
  });

  test('existing cash above the amount is spent, the cash target is kept', () => {
    const r = rebalanceAccount(account([[VTI, 300], [BND, 437.5]], 25000, m), { reason: 'Add', amount: 20000 });
    // V = 120,000: VTI target 72,000 (+12,000 = 60 sh), BND 42,000 (+7,000 = 87.5 → 87 sh), cash target 6,000.
    expect(rows(r)).toEqual(['Buy BND 87 @80 = 6960', 'Buy VTI 60 @200 = 12000']);
    expect(r.cash.after).toBe(6040);
  });

  test('never sells', () => {
    const r = rebalanceAccount(account([[VTI, 500]], 0, m), { reason: 'Add', amount: 0 });
    expect(rows(r)).toEqual([]);
    expect(codes(r)).toEqual(['Info:NOTHING_TO_INVEST']);
  });
});
