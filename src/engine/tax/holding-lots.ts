// Each holding of a taxable account gets its position's lots; the relief order is built from them
// only for the holdings a run sells or harvests (tax/caps.ts lotsOf): a direct-indexing account
// holds hundreds of positions and sells a few.

import type { AccountState } from '../state.js';
import type { TaxLot } from '../types.js';
import type { TaxPlan } from './plan.js';

const NO_LOTS: readonly TaxLot[] = [];

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
      h.rawLots = byProduct.get(h.product.id) ?? NO_LOTS;
      h.lots = null;
    }
  }
}
