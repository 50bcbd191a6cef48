import { describe, expect, it } from 'vitest';
import { heldValueCents } from './holding-values.js';

describe('heldValueCents', () => {
  it("rounds each holding on its own, half up, and sums an account's rows", () => {
    // 1.5 shares at $10.003 = $15.0045 → 1500.45 cents → 1500; 0.5 shares at $0.01 = 0.5 cent → 1.
    const held = heldValueCents([
      { account_id: 7, held: '1500000 10003000 500000 10000' },
      { account_id: 9, held: '2000000 50000000' },
      { account_id: 7, held: '1000000 1000000' },
    ]);
    expect(held).toEqual(
      new Map([
        [7, 1500 + 1 + 100],
        [9, 10000],
      ]),
    );
  });

  it('stays exact past 2^53 for a single holding', () => {
    // 90,000,000,000 shares at $1,000.00: 9e16 micros × 1e9 micros is far beyond a double's integers.
    expect(heldValueCents([{ account_id: 1, held: '90000000000000000 1000000000' }]).get(1)).toBe(9_000_000_000_000_000);
  });
});
