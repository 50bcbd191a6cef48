// sortShort is V8's sort without its copy: it must give V8's order, even for comparators that are
// not a strict order (the lot comparators call gains within 1e-12 equal, so a ≈ b ≈ c with a < c).
// firstOf must give the first items of a stable sort.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { comparators, orderLots, type LotSlice } from './lots.js';
import { firstOf, sortShort } from './short-sorts.js';

interface Item {
  readonly key: number;
  readonly tag: number;
}

/** Equal within `tolerance`: not transitive, as the lot comparators are not. */
const fuzzy =
  (tolerance: number) =>
  (a: Item, b: Item): number =>
    Math.abs(a.key - b.key) > tolerance ? a.key - b.key : 0;

const items = (max: number) => fc.array(fc.record({ key: fc.integer({ min: 0, max: 20 }), tag: fc.nat() }), { maxLength: max });

describe('sortShort', () => {
  test('gives the order Array.prototype.sort gives, whatever the comparator', () => {
    for (const compare of [fuzzy(0), fuzzy(1), fuzzy(2), (a: Item, b: Item) => b.key - a.key, () => 0, (a: Item, b: Item) => ((a.key * 7 + b.key * 3) % 5) - 2]) {
      fc.assert(
        fc.property(items(80), (list) => {
          expect(sortShort([...list], compare)).toEqual([...list].sort(compare));
        }),
        { numRuns: 300 },
      );
    }
  });

  test('orders lots as the sort of V8 did', () => {
    const slice = fc.record({
      id: fc.option(fc.integer({ min: 1, max: 50 }), { nil: null }),
      shares: fc.integer({ min: 1, max: 100 }),
      costPerShare: fc.constantFrom(10, 10 + 5e-13, 10 + 1e-12, 10 + 2e-12, 12, 8),
      acquiredOn: fc.constantFrom('2024-01-01', '2024-06-30', '2025-03-01'),
      long: fc.boolean(),
      gainPerShare: fc.constantFrom(-2, -2 + 5e-13, -2 + 1e-12, 0, 5e-10, 1, 1 + 7e-13),
      heldBack: fc.constant(false),
    });
    fc.assert(
      fc.property(fc.array(slice, { maxLength: 20 }), fc.constantFrom('MinTax' as const, 'HIFO' as const, 'FIFO' as const), (lots: LotSlice[], method) => {
        const byV8 = [...lots].sort(comparators[method]);
        expect(orderLots([...lots], method)).toEqual(byV8);
      }),
      { numRuns: 300 },
    );
  });
});

describe('firstOf', () => {
  test('gives the first k items of a stable sort', () => {
    const byKey = (a: Item, b: Item) => b.key - a.key;
    fc.assert(
      fc.property(items(40), fc.integer({ min: 1, max: 8 }), (list, k) => {
        expect(firstOf(list, byKey, k)).toEqual([...list].sort(byKey).slice(0, k));
      }),
      { numRuns: 500 },
    );
  });
});
