import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { today } from './clock.js';

const at = (iso: string) => ({ now: () => new Date(iso) });

describe('today', () => {
  it('is the UTC date of whichever clock asks, across midnight and back', () => {
    expect(today(at('2026-11-27T23:59:59.999Z'))).toBe('2026-11-27');
    expect(today(at('2026-11-28T00:00:00.000Z'))).toBe('2026-11-28');
    expect(today(at('2026-11-27T12:00:00.000Z'))).toBe('2026-11-27');
    expect(today(at('1969-12-31T23:59:59.999Z'))).toBe('1969-12-31');
  });

  it('always says what the date printed afresh says', () => {
    fc.assert(
      fc.property(fc.integer({ min: -8_640_000_000_000, max: 8_640_000_000_000 }), (ms) => {
        expect(today({ now: () => new Date(ms) })).toBe(new Date(ms).toISOString().slice(0, 10));
      }),
    );
  });
});
