import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TradeLot } from '../engine/index.js';
import { decodeTradeLots, encodeTradeLots, encodeTradeLotsText } from './trade-lots-codec.js';

// JSON has no negative zero (neither had the objects stored before): a zero reads back as 0.
const amount = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((d) => d + 0);

const lot = fc.record(
  {
    taxLotId: fc.option(fc.integer({ min: 1, max: 2 ** 40 }), { nil: null }),
    shares: amount(0, 1e9),
    costBasis: amount(0, 1e12),
    acquiredDate: fc.date({ min: new Date('1990-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    term: fc.constantFrom('Short' as const, 'Long' as const),
    estimatedGain: amount(-1e12, 1e12),
    washSale: fc.constant(true),
  },
  { requiredKeys: ['taxLotId', 'shares', 'costBasis', 'acquiredDate', 'term', 'estimatedGain'] },
);

describe('stored trade lots', () => {
  it('read back exactly what was written, as valid JSON', () => {
    fc.assert(
      fc.property(fc.array(lot, { maxLength: 6 }), (lots: TradeLot[]) => {
        const text = encodeTradeLots(lots);
        expect(() => JSON.parse(text) as unknown).not.toThrow();
        expect(decodeTradeLots(text)).toEqual(lots);
      }),
    );
  });

  it('writes the numbers a plan holds (whole cents, whole micro-shares) exactly as JSON prints them', () => {
    const cents = fc.integer({ min: -(10 ** 13), max: 10 ** 13 }).map((c) => c / 100 + 0);
    const micros = fc.integer({ min: 0, max: 10 ** 15 }).map((m) => m / 1e6);
    const planned = fc.record({ taxLotId: fc.integer({ min: 1, max: 2 ** 40 }), shares: fc.oneof(micros, amount(0, 1e9)), costBasis: fc.oneof(cents, amount(0, 1e12)), estimatedGain: fc.oneof(cents, amount(-1e12, 1e12)) });
    fc.assert(
      fc.property(planned, (l) => {
        const text = encodeTradeLots([{ ...l, acquiredDate: '2024-01-02', term: 'Short' }]);
        expect(text).toBe(JSON.stringify([[l.taxLotId, l.shares, l.costBasis, '2024-01-02', 'S', l.estimatedGain]]));
      }),
      { numRuns: 20_000 },
    );
  });

  it('quotes any date as JSON does (one a plan holds is plain ISO; anything else goes through JSON.stringify)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('2024-01-02', 'a"b', 'a\\b', '\u0001', '\u007f', 'é', '\ud800')), (date) => {
        const text = encodeTradeLots([{ taxLotId: 1, shares: 1, costBasis: 1, acquiredDate: date, term: 'Long', estimatedGain: 0 }]);
        expect(text).toBe(JSON.stringify([[1, 1, 1, date, 'L', 0]]));
      }),
    );
  });

  it('writes as bytes the text concatenation writes', () => {
    const cents = fc.integer({ min: -(10 ** 13), max: 10 ** 13 }).map((c) => c / 100 + 0);
    const micros = fc.integer({ min: 0, max: 10 ** 15 }).map((m) => m / 1e6);
    const planned = fc.record(
      {
        taxLotId: fc.oneof(fc.option(fc.integer({ min: 1, max: 2 ** 40 }), { nil: null }), fc.constantFrom(0, 2 ** 53, 1e21, -1)),
        shares: fc.oneof(micros, amount(0, 1e9)),
        costBasis: fc.oneof(cents, amount(0, 1e12)),
        acquiredDate: fc.oneof(fc.constantFrom('2024-01-02', '1999-12-31'), fc.string(), fc.constantFrom('é', 'a"b')),
        term: fc.constantFrom('Short' as const, 'Long' as const),
        estimatedGain: fc.oneof(cents, amount(-1e12, 1e12)),
        washSale: fc.constant(true),
      },
      { requiredKeys: ['taxLotId', 'shares', 'costBasis', 'acquiredDate', 'term', 'estimatedGain'] },
    );
    fc.assert(
      fc.property(fc.array(planned, { maxLength: 6 }), (lots: TradeLot[]) => {
        expect(encodeTradeLots(lots)).toBe(encodeTradeLotsText(lots));
      }),
      { numRuns: 20_000 },
    );
  });

  it('read lists stored as objects (before the compact form) as they are', () => {
    const old: TradeLot[] = [{ taxLotId: 4, shares: 10, costBasis: 1500, acquiredDate: '2022-06-01', term: 'Long', estimatedGain: 500 }];
    expect(decodeTradeLots(JSON.stringify(old))).toEqual(old);
  });

  it('is about a third of the objects\u2019 size', () => {
    const lots: TradeLot[] = [{ taxLotId: 123456, shares: 12.5, costBasis: 1234.56, acquiredDate: '2023-04-05', term: 'Long', estimatedGain: 123.45 }];
    expect(encodeTradeLots(lots)).toBe('[[123456,12.5,1234.56,"2023-04-05","L",123.45]]');
  });
});
