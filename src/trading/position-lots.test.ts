import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forgetLots, lotsAcquiredSince, unpackPositions } from './position-lots.js';

describe('unpackPositions (an account packed in one row by the snapshot read)', () => {
  it('reads the triples in product order, each lot text to its own position, lots and their summary read only when asked', () => {
    // The database may hand the triples in any order; each lot names its product.
    const held = '[30,2500000,12345,10,1000000,9900,20,0,0]';
    const lots = `[[10,7,1000000,9950,"2025-05-01"],[30,8,2000000,12000,"2024-01-02"],[30,9,500000,345,"2023-03-04"]]`;
    const positions = unpackPositions(held, lots);

    expect(positions.map((p) => [p.productId, p.shares, p.costBasis])).toEqual([
      [10, 1, 99],
      [20, 0, 0],
      [30, 2.5, 123.45],
    ]);
    expect(positions.map((p) => p.lotsSummary)).toEqual([{ maxCostPerShare: 99.5, latestAcquiredOn: '2025-05-01', maxLotCost: 99.5 }, undefined, { maxCostPerShare: 60, latestAcquiredOn: '2024-01-02', maxLotCost: 120 }]);
    expect(positions[1]!.taxLots).toBeUndefined();
    expect(positions[2]!.taxLots).toEqual([
      { id: 8, shares: 2, costBasis: 120, acquiredOn: '2024-01-02' },
      { id: 9, shares: 0.5, costBasis: 3.45, acquiredOn: '2023-03-04' },
    ]);
    // Let go of once their household is planned, they read the same when asked again.
    const first = positions[2]!.taxLots;
    forgetLots(positions);
    expect(positions[2]!.taxLots).not.toBe(first);
    expect(positions[2]!.taxLots).toEqual(first);
  });

  it('matches runs of lots that follow the triples in place, and looks up any that do not', () => {
    const lot = (product: number, date: string) => `[${product},${product},1000000,1000,"${date}"]`;
    const inOrder = unpackPositions('[10,1000000,1000,20,0,0,30,1000000,1000]', `[${lot(10, '2025-01-01')},${lot(30, '2025-03-03')}]`);
    expect(inOrder.map((p) => [p.productId, p.lotsSummary?.latestAcquiredOn, p.taxLots?.[0]?.id])).toEqual([
      [10, '2025-01-01', 10],
      [20, undefined, undefined],
      [30, '2025-03-03', 30],
    ]);
    // Lots of a product the row does not hold are ignored, as a lookup by product ignores them.
    const stray = unpackPositions('[10,1000000,1000,30,1000000,1000]', `[${lot(10, '2025-01-01')},${lot(20, '2025-02-02')},${lot(30, '2025-03-03')}]`);
    expect(stray.map((p) => [p.productId, p.lotsSummary?.latestAcquiredOn])).toEqual([
      [10, '2025-01-01'],
      [30, '2025-03-03'],
    ]);
    // Lots out of product order, or a product's lots apart, are grouped by product as JSON.parse reads them.
    const apart = unpackPositions('[10,1000000,1000,30,1000000,1000]', `[${lot(30, '2025-03-03')},${lot(10, '2025-01-01')},${lot(30, '2025-04-04')}]`);
    expect(apart.map((p) => [p.productId, p.lotsSummary?.latestAcquiredOn, p.taxLots?.map((l) => l.acquiredOn)])).toEqual([
      [10, '2025-01-01', ['2025-01-01']],
      [30, '2025-04-04', ['2025-03-03', '2025-04-04']],
    ]);
  });

  it('reads several positions’ lots from one text the same as each alone, in order or not', () => {
    const lot = fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: 0, max: 1e12 }), fc.integer({ min: -1e9, max: 1e9 }), fc.constantFrom('2024-02-29', '2025-12-31', '2023-01-01'));
    fc.assert(
      fc.property(fc.array(lot, { maxLength: 12 }), fc.boolean(), (tuples, sorted) => {
        const rows = sorted ? [...tuples].sort((a, b) => a[0] - b[0]) : tuples;
        const together = unpackPositions('[1,0,0,2,0,0,3,0,0,4,0,0]', JSON.stringify(rows));
        const alone = [1, 2, 3, 4].map((product) => {
          const own = rows.filter(([p]) => p === product);
          return unpackPositions(`[${product},0,0]`, own.length === 0 ? null : JSON.stringify(own))[0]!;
        });
        expect(together.map((p) => [p.taxLots, p.lotsSummary])).toEqual(alone.map((p) => [p.taxLots, p.lotsSummary]));
      }),
    );
  });

  it('gives positions without lots when the row has no lot column', () => {
    const positions = unpackPositions('[5,1000000,100]', null);
    expect(positions).toHaveLength(1);
    expect(positions[0]!.lotsSummary).toBeUndefined();
    expect(positions[0]!.taxLots).toBeUndefined();
  });

  it('reads lots exactly as JSON.parse does, in either database’s spacing and in shapes the scan leaves to JSON.parse', () => {
    const lot = fc.tuple(fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: -1e15 + 1, max: 1e15 - 1 }), fc.integer({ min: -1e12, max: 1e12 }), fc.oneof(fc.constant('2024-02-29'), fc.constant('2025-12-31'), fc.constant('a\\"b'), fc.constantFrom('1899-12-31', '2156-01-01', '2024-13-01', '2024-00-00', '2024-1x-01')));
    fc.assert(
      fc.property(fc.array(lot, { maxLength: 6 }), fc.boolean(), fc.boolean(), (tuples, spaced, fraction) => {
        const rows: unknown[][] = tuples.map(([id, shares, cost, date]) => [1, id, fraction ? shares + 0.5 : shares, cost, date]);
        const json = spaced ? JSON.stringify(rows).replaceAll(',', ', ') : JSON.stringify(rows);
        const [position] = unpackPositions('[1,0,0]', json);
        const expected = rows.length === 0 ? undefined : rows.map(([, id, shares, cost, date]) => ({ id, shares: (shares as number) / 1e6, costBasis: (cost as number) / 100, acquiredOn: date }));
        expect(position!.taxLots).toEqual(expected);
      }),
    );
  });

  it('summarizes the lots as the database would aggregate them (highest cost per share, newest date, highest lot cost), in every shape', () => {
    const date = fc.oneof(fc.constant('2024-02-29'), fc.constant('2025-12-31'), fc.constant('2025-12-3'), fc.constant('2023-01-01'), fc.constant('a\\"b'), fc.constantFrom('1899-12-31', '2155-12-31', '2156-01-01', '2024-12-32'));
    const lot = fc.tuple(fc.integer({ min: 1, max: 2 ** 31 }), fc.oneof(fc.constant(0), fc.integer({ min: -1e12, max: 1e12 })), fc.integer({ min: -1e12, max: 1e12 }), date);
    fc.assert(
      fc.property(fc.array(lot, { maxLength: 6 }), fc.boolean(), fc.boolean(), (tuples, spaced, fraction) => {
        const rows = tuples.map(([id, shares, cost, acquired]) => [1, id, fraction && shares !== 0 ? shares + 0.5 : shares, cost, acquired] as const);
        const json = spaced ? JSON.stringify(rows).replaceAll(',', ', ') : JSON.stringify(rows);
        const [position] = unpackPositions('[1,0,0]', json);
        // SQL: max(cost_cents * 10000.0 / nullif(shares_micros, 0)) (0 when none has shares), max(acquired_date), max(cost_cents).
        const perShare = rows.filter(([, , shares]) => shares !== 0).map(([, , shares, cost]) => (cost * 10000) / shares);
        const expected =
          rows.length === 0
            ? undefined
            : { maxCostPerShare: perShare.length === 0 ? 0 : Math.max(...perShare), latestAcquiredOn: rows.map(([, , , , d]) => d).sort().at(-1), maxLotCost: Math.max(...rows.map(([, , , cost]) => cost)) / 100 };
        expect(position!.lotsSummary).toEqual(expected);
      }),
    );
  });
});

describe('lotsAcquiredSince (a household’s recent buys from its other accounts’ lot texts)', () => {
  it('gives the product and date of each lot acquired on or after the date, in the text’s order', () => {
    const text = '[[10,7,1000000,9950,"2025-05-01"],[10,8,1000000,9950,"2025-06-10"],[30,9,500000,345,"2025-06-01"]]';
    expect(lotsAcquiredSince(text, '2025-06-01')).toEqual([
      { productId: 10, date: '2025-06-10' },
      { productId: 30, date: '2025-06-01' },
    ]);
    expect(lotsAcquiredSince(text, '2025-07-01')).toEqual([]);
    expect(lotsAcquiredSince('[]', '2025-01-01')).toEqual([]);
  });

  it('reads any text the scan leaves alone as JSON.parse does', () => {
    const lot = fc.tuple(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: -1e6, max: 1e9 }), fc.constantFrom('2024-01-02', '2025-06-01', '2025-06-30', '20250601', 'x'));
    fc.assert(
      fc.property(fc.array(lot, { maxLength: 8 }), fc.boolean(), fc.constantFrom('2025-06-01', '2024-12-31'), (lots, spaced, since) => {
        const text = spaced ? JSON.stringify(lots, null, 1) : JSON.stringify(lots);
        const expected = lots.filter((l) => l[4] >= since).map((l) => ({ productId: l[0], date: l[4] }));
        expect(lotsAcquiredSince(text, since)).toEqual(expected);
      }),
    );
  });
});
