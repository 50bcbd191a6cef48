import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainInteger } from './plain-integer.js';

describe('plainInteger', () => {
  it('reads an optional minus and up to 15 digits exactly, wherever they stand in the text', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(10 ** 15) + 1, max: 10 ** 15 - 1 }), fc.string({ maxLength: 3 }), (n, around) => {
        const text = `${around}${n}${around}`;
        expect(plainInteger(text, around.length, around.length + String(n).length)).toBe(n);
      }),
    );
  });

  it('is NaN for what it leaves to Number: no digit, a fraction, an exponent, 16 digits, a stray sign', () => {
    for (const text of ['', '-', '1.5', '3e2', '1234567890123456', '--1', '1-2', ' 1', '+1']) expect(plainInteger(text, 0, text.length)).toBeNaN();
  });
});
