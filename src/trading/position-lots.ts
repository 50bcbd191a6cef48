// A position's tax lots as the rebalance loader reads them: one text value per position, a short
// summary ahead of the lots' JSON, "<max cost per share> <latest acquired date> [[id, shares_micros,
// cost_cents, acquired_date], …]". The engine reads the summary for every position of a taxable
// account (is there a loss to harvest, a buy in the wash-sale window?) and the lots only of the
// positions it sells or harvests; most of an advisory or direct-indexing book's lots are then never
// parsed. The database builds it in the same pass over the lots (snapshot-repository.ts lotsColumn),
// so the summary costs no extra read.

import type { LotsSummary, Position, TaxLot } from '../engine/index.js';
import { centsToDollars, microsToShares } from '../shared/money.js';

/** A lot as the lots column carries it: [id, shares_micros, cost_cents, acquired_date]. */
type LotTuple = [number, number, number, string];

/**
 * A position whose lots are parsed on first read of `taxLots`. `taxLots` is a getter of the class:
 * an object spread of a StoredPosition would keep its summary and drop its lots, so code that copies
 * positions builds new ones (engine/replay.ts does) rather than spreading them.
 */
export class StoredPosition implements Position {
  readonly lotsSummary: LotsSummary | undefined;
  #lots: readonly TaxLot[] | undefined | null = null;
  readonly #text: string | null;

  constructor(
    readonly productId: number,
    readonly shares: number,
    readonly costBasis: number,
    lots: string | null,
  ) {
    if (lots === null) {
      this.#text = null;
      this.lotsSummary = undefined;
      return;
    }
    const first = lots.indexOf(' ');
    const second = lots.indexOf(' ', first + 1);
    this.lotsSummary = { maxCostPerShare: Number(lots.slice(0, first)), latestAcquiredOn: lots.slice(first + 1, second) };
    this.#text = lots.slice(second + 1);
  }

  get taxLots(): readonly TaxLot[] | undefined {
    if (this.#lots === null) this.#lots = parseLots(this.#text);
    return this.#lots;
  }
}

function parseLots(text: string | null): TaxLot[] | undefined {
  const tuples = text === null ? null : (JSON.parse(text) as LotTuple[]);
  if (!tuples || tuples.length === 0) return undefined;
  return tuples.map(([id, sharesMicros, costCents, acquiredOn]): TaxLot => ({ id, shares: microsToShares(sharesMicros), costBasis: centsToDollars(costCents), acquiredOn }));
}
