// Tax lots: their term, the order a sell relieves them in, and the gain of relieving a prefix of
// that order. Shared by the planner (which lots a sell will take) and by execution (which lots a
// sell did take), so both relieve the same lots. See docs/tax-aware.md.

import type { LotSelection, TaxLot } from '../types.js';
import { sortShort } from './short-sorts.js';

/** A lot as a sell sees it at one price. */
export interface LotSlice {
  readonly id: number | null;
  readonly shares: number;
  readonly costPerShare: number;
  readonly acquiredOn: string;
  readonly long: boolean;
  /** Price minus cost per share: negative for a loss. */
  readonly gainPerShare: number;
  /** Held back by the wash-sale rule 2 (a loss lot of a product the household bought in the last 30 days). */
  readonly heldBack: boolean;
}

/**
 * Long-term when the trade date is more than one year after acquisition: on or after the day after
 * the first anniversary. ISO dates compare as strings; a 29 February lot's anniversary is read as
 * 28 February, so it turns long-term on 1 March.
 */
export function isLongTerm(acquiredOn: string, tradeDate: string): boolean {
  return acquiredOn < longTermCutoff(tradeDate);
}

let cutoffFor = '';
let cutoff = '';

/**
 * The same test as one string comparison per lot: acquired before the trade date's day one year
 * earlier (a 29 February lot then turns long-term on 1 March, as above). Cached for the one trade
 * date a run has.
 */
export function longTermCutoff(tradeDate: string): string {
  if (tradeDate !== cutoffFor) {
    cutoffFor = tradeDate;
    cutoff = `${String(Number(tradeDate.slice(0, 4)) - 1).padStart(4, '0')}${tradeDate.slice(4)}`;
  }
  return cutoff;
}

const DAY_MS = 86_400_000;

/** Whole days from `from` to `to` (ISO dates); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

let beforeKey = '';
let beforeValue = '';

/** The ISO date `days` before `date` (the last answer is kept: a run asks for one date). */
export function daysBefore(date: string, days: number): string {
  const k = `${date}/${days}`;
  if (k !== beforeKey) {
    beforeKey = k;
    beforeValue = new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);
  }
  return beforeValue;
}

/** A lot's cost per share (0 for a lot without shares). */
export function costPerShareOf(lot: TaxLot): number {
  return lot.shares > 0 ? lot.costBasis / lot.shares : 0;
}

export function sliceOf(lot: TaxLot, price: number, tradeDate: string, heldBack = false): LotSlice {
  const acquiredOn = lot.acquiredOn ?? tradeDate;
  const costPerShare = costPerShareOf(lot);
  return { id: lot.id ?? null, shares: lot.shares, costPerShare, acquiredOn, long: acquiredOn < longTermCutoff(tradeDate), gainPerShare: price - costPerShare, heldBack };
}

/**
 * A slice the planner reuses: the slices of a holding's lots live while its account is planned,
 * and the account's state gives them back when it is done (state.ts releaseState), as it gives
 * back its holdings; a tax-aware run orders the lots of every holding it sells or harvests, and a
 * new object for each lot was a tenth of what its engine allocated. Its fields are written only by
 * pooledSliceOf: a LotSlice reads them as read-only.
 */
class PooledSlice implements LotSlice {
  id: number | null = null;
  shares = 0;
  costPerShare = 0;
  acquiredOn = '';
  long = false;
  gainPerShare = 0;
  heldBack = false;
}

const slicePool: PooledSlice[] = [];

/** sliceOf, into a slice of the pool: the same numbers. Given back by releaseSlices. */
export function pooledSliceOf(lot: TaxLot, price: number, tradeDate: string, heldBack: boolean): LotSlice {
  const s = slicePool.pop() ?? new PooledSlice();
  const acquiredOn = lot.acquiredOn ?? tradeDate;
  const costPerShare = costPerShareOf(lot);
  s.id = lot.id ?? null;
  s.shares = lot.shares;
  s.costPerShare = costPerShare;
  s.acquiredOn = acquiredOn;
  s.long = acquiredOn < longTermCutoff(tradeDate);
  s.gainPerShare = price - costPerShare;
  s.heldBack = heldBack;
  return s;
}

/** Gives a finished holding's slices back to the pool (those pooledSliceOf made; copies are left to the collector). */
export function releaseSlices(slices: readonly LotSlice[]): void {
  for (const s of slices) if (s instanceof PooledSlice) slicePool.push(s);
}

// MinTax categories: losses first (short-term, then long-term), then no gain, then long-term
// gains, short-term gains last, so the cheapest tax comes first.
function minTaxCategory(s: LotSlice): number {
  if (s.gainPerShare < -1e-9) return s.long ? 1 : 0;
  if (s.gainPerShare <= 1e-9) return s.long ? 3 : 2;
  return s.long ? 4 : 5;
}

function byDateThenId(a: LotSlice, b: LotSlice): number {
  if (a.acquiredOn !== b.acquiredOn) return a.acquiredOn < b.acquiredOn ? -1 : 1;
  return (a.id ?? Number.MAX_SAFE_INTEGER) - (b.id ?? Number.MAX_SAFE_INTEGER);
}

/** The order each method relieves lots in (exported for the test that holds sortShort to V8's sort). */
export const comparators: Readonly<Record<LotSelection, (a: LotSlice, b: LotSlice) => number>> = {
  MinTax: (a, b) => {
    const ca = minTaxCategory(a);
    const cb = minTaxCategory(b);
    if (ca !== cb) return ca - cb;
    // Losses: largest loss per share first; gains: smallest gain per share first.
    const d = ca <= 1 ? a.gainPerShare - b.gainPerShare : ca >= 4 ? a.gainPerShare - b.gainPerShare : 0;
    return Math.abs(d) > 1e-12 ? d : byDateThenId(a, b);
  },
  HIFO: (a, b) => {
    const d = b.costPerShare - a.costPerShare;
    return Math.abs(d) > 1e-12 ? d : byDateThenId(a, b);
  },
  FIFO: byDateThenId,
};

/** The lots in the order the method relieves them. */
export function orderLots(slices: LotSlice[], method: LotSelection): LotSlice[] {
  return sortShort(slices, comparators[method]);
}

/** Short- and long-term gain of relieving the first `shares` of `ordered`. */
export function gainOfPrefix(ordered: readonly LotSlice[], shares: number): { short: number; long: number } {
  let short = 0;
  let long = 0;
  let left = shares;
  for (const s of ordered) {
    if (left <= 1e-9) break;
    const take = s.shares < left ? s.shares : left;
    if (s.long) long += take * s.gainPerShare;
    else short += take * s.gainPerShare;
    left -= take;
  }
  return { short, long };
}
