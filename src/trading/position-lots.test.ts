import { describe, expect, it } from 'vitest';
import { unpackPositions } from './position-lots.js';

const SEPARATOR = String.fromCharCode(30);

describe('unpackPositions (an account packed in one row by the snapshot read)', () => {
  it('reads the triples in product order, each lot text to its own position, lots parsed only when read', () => {
    // The database may hand the triples in any order; lot segments name their product.
    const held = '[30,2500000,12345,10,1000000,9900,20,0,0]';
    const lots = [`10 99.5 2025-05-01 9900 [[7,1000000,9900,"2025-05-01"]]`, `30 60 2024-01-02 12000 [[8,2000000,12000,"2024-01-02"],[9,500000,345,"2023-03-04"]]`].join(SEPARATOR);
    const positions = unpackPositions(held, lots);

    expect(positions.map((p) => [p.productId, p.shares, p.costBasis])).toEqual([
      [10, 1, 99],
      [20, 0, 0],
      [30, 2.5, 123.45],
    ]);
    expect(positions.map((p) => p.lotsSummary)).toEqual([{ maxCostPerShare: 99.5, latestAcquiredOn: '2025-05-01', maxLotCost: 99 }, undefined, { maxCostPerShare: 60, latestAcquiredOn: '2024-01-02', maxLotCost: 120 }]);
    expect(positions[1]!.taxLots).toBeUndefined();
    expect(positions[2]!.taxLots).toEqual([
      { id: 8, shares: 2, costBasis: 120, acquiredOn: '2024-01-02' },
      { id: 9, shares: 0.5, costBasis: 3.45, acquiredOn: '2023-03-04' },
    ]);
  });

  it('gives positions without lots when the row has no lot column', () => {
    const positions = unpackPositions('[5,1000000,100]', null);
    expect(positions).toHaveLength(1);
    expect(positions[0]!.lotsSummary).toBeUndefined();
    expect(positions[0]!.taxLots).toBeUndefined();
  });
});
