// Where a holding's lots come from: its positions, whose lots a loader may hand over unparsed
// until asked. Read through here, so that only the holdings a run sells or harvests read theirs.

import type { Position, TaxLot } from '../types.js';

/** The lot fields of a holding (state.ts), named here so this file does not import the state. */
export interface LotHolding {
  /** The positions whose lots the holding relieves; null when the run tracks no lots. */
  lotSource: readonly Position[] | null;
  /** Their lots, once read. */
  rawLots: readonly TaxLot[] | null;
}

const NO_LOTS: readonly TaxLot[] = [];
const NO_POSITIONS: readonly Position[] = [];

/** A position's lots; without any, one lot of its shares at its total cost (when it has one). */
function lotsOfPosition(p: Position): readonly TaxLot[] {
  if (p.taxLots && p.taxLots.length > 0) return p.taxLots;
  return p.costBasis != null && p.shares > 0 ? [{ shares: p.shares, costBasis: p.costBasis }] : NO_LOTS;
}

/** The holding's lots as given (unordered), read on first use. */
export function rawLotsOf(h: LotHolding): readonly TaxLot[] {
  if (h.rawLots !== null) return h.rawLots;
  const source = h.lotSource ?? NO_POSITIONS;
  // A product is held by one position almost always; only a second one costs a copy.
  h.rawLots = source.length === 1 ? lotsOfPosition(source[0] as Position) : source.flatMap(lotsOfPosition);
  return h.rawLots;
}

/** What the holding's lots hold at most, for the harvest's test before its lots are read. */
export interface LotCeiling {
  /** The highest cost per share of a lot. */
  maxCostPerShare: number;
  /** The highest cost of a lot, in dollars. */
  maxLotCost: number;
}

const ceiling: LotCeiling = { maxCostPerShare: 0, maxLotCost: 0 };

/**
 * The most any lot of the holding costs, a share and in all, when every position says it without
 * its lots being read; undefined otherwise. A position without lots has nothing to harvest (only
 * stored lots are harvested), so it counts as no cost at all. The answer is one reused object,
 * valid until the next call: it is asked of every holding of a direct-indexing book.
 */
export function lotCeilingOf(h: LotHolding): LotCeiling | undefined {
  let perShare = 0;
  let lot = 0;
  for (const p of h.lotSource ?? NO_POSITIONS) {
    const s = p.lotsSummary;
    if (s) {
      if (s.maxCostPerShare > perShare) perShare = s.maxCostPerShare;
      if (s.maxLotCost > lot) lot = s.maxLotCost;
    } else if (p.taxLots && p.taxLots.length > 0) return undefined;
  }
  ceiling.maxCostPerShare = perShare;
  ceiling.maxLotCost = lot;
  return ceiling;
}
