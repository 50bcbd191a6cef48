// Each holding of a taxable account gets its lots in relief order: the method's order for the
// lots a sell may take, then (wash-sale rule 2) the loss lots of a group the household bought in
// the last 30 days, which only a forced cash raise may take.

import type { AccountState, Holding } from '../state.js';
import type { TaxLot } from '../types.js';
import { orderLots, sliceOf, type LotSlice } from './lots.js';
import { groupOf, type TaxPlan } from './plan.js';

export function holdingLots(st: AccountState, plan: TaxPlan): void {
  const byProduct = new Map<number, readonly TaxLot[]>();
  for (const p of st.snap.positions) {
    const lots: readonly TaxLot[] = p.taxLots && p.taxLots.length > 0 ? p.taxLots : p.costBasis != null && p.shares > 0 ? [{ shares: p.shares, costBasis: p.costBasis }] : [];
    if (lots.length === 0) continue;
    const list = byProduct.get(p.productId);
    // A product is held by one position almost always; only a second one costs a copy.
    byProduct.set(p.productId, list ? [...list, ...lots] : lots);
  }
  for (const line of st.lines) {
    for (const h of line.holdings) {
      h.tax = plan;
      setLots(h, byProduct.get(h.product.id) ?? [], plan);
    }
  }
}

function setLots(h: Holding, lots: readonly TaxLot[], plan: TaxPlan): void {
  const recentBuy = plan.recentBuyGroups.has(groupOf(h.product));
  const free: LotSlice[] = [];
  const held: LotSlice[] = [];
  for (const lot of lots) {
    if (!(lot.shares > 0)) continue;
    const slice = sliceOf(lot, h.price, plan.asOfDate, recentBuy && lot.costBasis > lot.shares * h.price + 1e-9);
    (slice.heldBack ? held : free).push(slice);
  }
  orderLots(free, plan.method);
  orderLots(held, plan.method);
  let total = 0;
  for (const s of free) total += s.shares;
  for (const s of held) total += s.shares;
  // Shares sold by pending items are gone from the holding: they take the first lots in order.
  let excess = total - h.shares;
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
  let freeShares = 0;
  for (const s of free) freeShares += s.shares;
  h.lots = held.length > 0 ? free.concat(held) : free;
  h.freeShares = freeShares;
}
