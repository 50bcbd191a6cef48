/**
 * The writers' JavaScript spelling of a position's `lots` text (LotsTextBuilder, built straight
 * into bytes) reads as the format says: `product_id,id,shares_micros,cost_cents,"acquired_date"` a
 * lot, joined by `],[` in id order. The database tests hold it to the SQL spelling (staleLotTexts).
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { type LotOfText, positionLotsText } from './position-lots.js';

const date = fc.date({ min: new Date('1970-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const lot = fc.record({ id: fc.integer({ min: 1, max: 2 ** 31 - 1 }), shares_micros: fc.maxSafeInteger(), cost_cents: fc.maxSafeInteger(), acquired_date: date });

it('writes each lot as the format says, in id order, and null for no lots', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.uniqueArray(lot, { selector: (l) => l.id, maxLength: 6 }), (productId, lots: LotOfText[]) => {
      const expected = [...lots].sort((a, b) => a.id - b.id).map((l) => `${productId},${l.id},${l.shares_micros},${l.cost_cents},"${l.acquired_date}"`);
      expect(positionLotsText(productId, lots)).toBe(lots.length === 0 ? null : expected.join('],['));
    }),
  );
});
