// Equivalents: holding an alternate counts toward its model product.
import { describe, expect, test } from 'vitest';
import { rebalanceAccount } from '../index.js';
import { account, BND, ITOT, model, rows, VTI } from './fixtures.js';

const m = model([[VTI, 60, 5, { equivalents: [ITOT.id] }], [BND, 35, 5]], 5);

describe('equivalents', () => {
  test('ITOT held at the VTI target is in tolerance: no trade', () => {
    const r = rebalanceAccount(account([[ITOT, 600], [BND, 437.5]], 5000, m), { reason: 'NeedReview' });
    expect(rows(r)).toEqual([]);
    expect(r.weights.find((w) => w.ticker === 'VTI')).toMatchObject({ weightBefore: 60 });
  });

  test('an overweight line sells the equivalent before the model product', () => {
    const r = rebalanceAccount(account([[ITOT, 200], [VTI, 300], [BND, 250]], 0, m), { reason: 'NeedReview' });
    // VTI line 80,000 of 100,000: 20,000 comes out of ITOT first.
    expect(rows(r)).toEqual(['Sell ITOT 200 @100 = 20000', 'Buy BND 187 @80 = 14960']);
  });
});
