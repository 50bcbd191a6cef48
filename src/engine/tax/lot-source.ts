// Where a holding's lots come from: its positions, whose lots a loader may hand over unparsed
// until asked. Read through here, so that only the holdings a run sells or harvests read theirs.

import type { Position, TaxLot } from '../types.js';

/** The lot fields of a holding (state.ts), named here so this file does not import the state. */
export interface LotHolding {
  /** The positions whose lots the holding relieves; null when the run tracks no lots. */
  lotSource: LotSource | null;
  /** Their lots, once read. */
  rawLots: readonly TaxLot[] | null;
}

/**
 * One position, or several (a product held twice). Almost every holding has one position, and a
 * list of one made for each position of a taxable account was a sixth of what that run's state
 * building allocated.
 */
export type LotSource = Position | readonly Position[];

/** The positions of a lot source, as a list (only a source of several is one already). */
function positionsOf(source: LotSource | null): readonly Position[] {
  if (source === null) return NO_POSITIONS;
  return isList(source) ? source : [source];
}

function isList(source: LotSource): source is readonly Position[] {
  return Array.isArray(source);
}

/** A source with `p` added: the position itself when it is the first. */
export function withPosition(source: LotSource | null, p: Position): LotSource {
  return source === null ? p : [...positionsOf(source), p];
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
  if (!isList(source)) h.rawLots = lotsOfPosition(source);
  else h.rawLots = source.length === 1 ? lotsOfPosition(source[0] as Position) : source.flatMap(lotsOfPosition);
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
  ceiling.maxCostPerShare = 0;
  ceiling.maxLotCost = 0;
  const source = h.lotSource;
  if (source === null) return ceiling;
  if (!isList(source)) return raiseCeiling(source) ? ceiling : undefined;
  for (const p of source) if (!raiseCeiling(p)) return undefined;
  return ceiling;
}

/** Raises the ceiling to what the position's summary says; false when it has lots but no summary. */
function raiseCeiling(p: Position): boolean {
  const s = p.lotsSummary;
  if (s) {
    if (s.maxCostPerShare > ceiling.maxCostPerShare) ceiling.maxCostPerShare = s.maxCostPerShare;
    if (s.maxLotCost > ceiling.maxLotCost) ceiling.maxLotCost = s.maxLotCost;
    return true;
  }
  return !(p.taxLots && p.taxLots.length > 0);
}
