import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { marketValueCents } from './money.js';

// `+ 0`: Big keeps the sign of a zero product (-0); a value in cents has none.
const exact = (shares: number, price: number) => Number(new Big(shares).times(price).div(1e10).round(0, Big.roundHalfUp)) + 0;

describe('marketValueCents', () => {
  it('equals the exact decimal product rounded half away from zero, small or past 2^53', () => {
    const micros = fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: -1e15, max: 1e15 }), fc.constantFrom(0, 5e9, -5e9, 15e9, 25e9));
    fc.assert(
      fc.property(micros, micros, (shares, price) => {
        expect(marketValueCents(shares, price)).toBe(exact(shares, price));
      }),
      { numRuns: 2000 },
    );
  });

  it('rounds a half cent away from zero', () => {
    expect(marketValueCents(5e9, 1)).toBe(1); // 0.5 cent
    expect(marketValueCents(-5e9, 1)).toBe(-1);
    expect(marketValueCents(15e9, 1)).toBe(2);
    expect(marketValueCents(1_000_000, 123_456_789)).toBe(12346); // 1 share at 123.456789
  });
});
