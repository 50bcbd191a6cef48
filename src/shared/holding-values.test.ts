import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heldValueCents, numbersOf } from './holding-values.js';

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

describe('numbersOf', () => {
  it('reads a held text as splitting it on spaces and Number would', () => {
    const integer = fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.maxSafeInteger(), fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map(String));
    fc.assert(
      fc.property(fc.array(integer, { maxLength: 40 }), (values) => {
        const text = values.map(String).join(' ');
        expect(numbersOf(text)).toEqual(text === '' ? [] : text.split(' ').map(Number));
      }),
    );
  });

  it('reads by Number what is not a plain integer of up to 15 digits (a decimal, an exponent, a long one)', () => {
    expect(numbersOf('1.5 -2 3e2 -0.25 12345678901234567')).toEqual([1.5, -2, 300, -0.25, Number('12345678901234567')]);
  });
});
