// How many shares of a holding a tax-aware sell may take, and the gains its planned sells
// realize. A holding's lots are ordered once (the method's order, wash-held lots last), and a
// sell always relieves a prefix of that order, so what has been sold is just `sold` shares.

import { floorShares } from '../money.js';
import { gainOfPrefix, type LotSlice } from './lots.js';
import type { TaxPlan } from './plan.js';

/** The tax fields of a holding (state.ts), named here so this file does not import the state. */
export interface TaxedHolding {
  shares: number;
  sold: number;
  decimals: number;
  tax: TaxPlan | null;
  /** Taxable accounts only: the lots in relief order. */
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
  const lots = h.lots;
  if (plan === null || lots === null) return base;
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
  if (plan === null || h.lots === null) return;
  const g = gainOfPrefix(h.lots, h.sold);
  plan.plannedShort += g.short - h.gainShort;
  plan.plannedLong += g.long - h.gainLong;
  h.gainShort = g.short;
  h.gainLong = g.long;
}
