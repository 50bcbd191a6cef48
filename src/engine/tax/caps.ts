// How many shares of a holding a tax-aware sell may take, and the gains its planned sells
// realize. A holding's lots are ordered once (the method's order, wash-held lots last), and a
// sell always relieves a prefix of that order, so what has been sold is just `sold` shares.

import { floorShares } from '../money.js';
import type { Product } from '../types.js';
import { gainOfPrefix, orderLots, pooledSliceOf, type LotSlice } from './lots.js';
import { groupOf, type TaxPlan } from './plan.js';
import { rawLotsOf, type LotHolding } from './lot-source.js';

/** The tax fields of a holding (state.ts), named here so this file does not import the state. */
export interface TaxedHolding extends LotHolding {
  shares: number;
  sold: number;
  decimals: number;
  price: number;
  product: Product;
  tax: TaxPlan | null;
  /** The lots in relief order, built by lotsOf (most holdings of a run are never sold). */
  lots: LotSlice[] | null;
  /** Shares of the lots that are not held back by wash-sale rule 2. */
  freeShares: number;
  gainShort: number;
  gainLong: number;
  /** Not to be sold in this run (the harvest replacement already held). */
  frozen: boolean;
}

/**
 * The shares a sell may take beyond what is sold: `base` (what the priorities allow) cut to the
 * lots not held back, then to the lots whose gains fit the budget left. Losses on the way raise
 * what is left; the first lot that does not fit is taken as far as it fits, and the walk stops
 * there, so a sell stays a prefix of the method's order.
 */
export function taxCap(h: TaxedHolding, base: number): number {
  if (h.frozen) return 0;
  const plan = h.tax;
  if (plan === null || h.lotSource === null || base <= 0) return base;
  const lots = lotsOf(h);
  const room = (plan.forcingWash ? h.shares : h.freeShares) - h.sold;
  const limit = room < base ? room : base;
  if (limit <= 0) return 0;
  if (plan.forceBudget || (plan.budgetShort === Infinity && plan.budgetLong === Infinity)) return limit;
  let leftShort = plan.budgetShort - plan.plannedShort;
  let leftLong = plan.budgetLong - plan.plannedLong;
  let take = 0;
  let pos = 0;
  for (const s of lots) {
    const start = h.sold > pos ? h.sold - pos : 0;
    pos += s.shares;
    let avail = s.shares - start;
    if (avail <= 1e-9) continue;
    if (take + avail > limit) avail = limit - take;
    const g = s.gainPerShare;
    if (g <= 1e-9) {
      take += avail;
      if (s.long) leftLong -= avail * g;
      else leftShort -= avail * g;
    } else {
      const left = s.long ? leftLong : leftShort;
      const fit = left > 0 ? floorShares(left / g, h.decimals) : 0;
      if (fit + 1e-9 < avail) {
        take += fit;
        break;
      }
      take += avail;
      if (s.long) leftLong -= avail * g;
      else leftShort -= avail * g;
    }
    if (take >= limit - 1e-9) break;
  }
  const f = 10 ** h.decimals;
  const capped = Math.floor(take * f + 1e-6) / f;
  return capped < limit ? capped : limit;
}

/** Re-counts the holding's planned gain after its sold shares changed. */
export function retally(h: TaxedHolding): void {
  const plan = h.tax;
  if (plan === null || h.lotSource === null) return;
  const g = gainOfPrefix(lotsOf(h), h.sold);
  plan.plannedShort += g.short - h.gainShort;
  plan.plannedLong += g.long - h.gainLong;
  h.gainShort = g.short;
  h.gainLong = g.long;
}

/**
 * Lots that hold more or fewer shares than the holding (pending items, a book without lots), made
 * to hold its shares. Kept apart from lotsOf, which runs for every lot a run reads: code that runs
 * rarely inside it leaves V8 without type feedback, and V8 then stops optimizing lotsOf
 * (on a direct-indexing book, five times slower).
 */
function fitToShares(h: TaxedHolding, plan: TaxPlan, free: LotSlice[], held: LotSlice[], excess: number): void {
  // Shares sold by pending items are gone from the holding: they take the first lots in order.
  while (excess > 1e-9 && (free.length > 0 || held.length > 0)) {
    const list = free.length > 0 ? free : held;
    const first = list[0] as LotSlice;
    if (first.shares <= excess + 1e-9) {
      list.shift();
      excess -= first.shares;
    } else {
      list[0] = { ...first, shares: first.shares - excess };
      excess = 0;
    }
  }
  // Shares no lot covers (pending buys, a book without lots) are relieved at their price, no gain.
  if (excess < -1e-9) free.push({ id: null, shares: -excess, costPerShare: h.price, acquiredOn: plan.asOfDate, long: false, gainPerShare: 0, heldBack: false });
}

/**
 * The holding's lots in relief order, built on first use: the method's order for the lots a sell
 * may take, then (wash-sale rule 2) the loss lots of a group the household bought in the last 30
 * days, which only a forced cash raise may take.
 */
export function lotsOf(h: TaxedHolding): LotSlice[] {
  if (h.lots !== null) return h.lots;
  const plan = h.tax as TaxPlan;
  const recentBuy = plan.recentBuyGroups.size > 0 && plan.recentBuyGroups.has(groupOf(h.product));
  const free: LotSlice[] = [];
  const held: LotSlice[] = [];
  for (const lot of rawLotsOf(h)) {
    if (!(lot.shares > 0)) continue;
    const slice = pooledSliceOf(lot, h.price, plan.asOfDate, recentBuy && lot.costBasis > lot.shares * h.price + 1e-9);
    (slice.heldBack ? held : free).push(slice);
  }
  orderLots(free, plan.method);
  orderLots(held, plan.method);
  let total = 0;
  for (const s of free) total += s.shares;
  for (const s of held) total += s.shares;
  const excess = total - h.shares;
  if (excess > 1e-9 || excess < -1e-9) fitToShares(h, plan, free, held, excess);
  let freeShares = 0;
  for (const s of free) freeShares += s.shares;
  h.lots = held.length > 0 ? free.concat(held) : free;
  h.freeShares = freeShares;
  return h.lots;
}
