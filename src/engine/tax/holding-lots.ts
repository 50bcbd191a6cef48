// Each holding of a taxable account knows the positions its lots come from; the lots themselves
// are read only for the holdings a run sells or harvests (rawLotsOf, then tax/caps.ts lotsOf): a
// direct-indexing account holds hundreds of positions and sells a few, and a loader may hand the
// lots over unparsed until asked.

import type { AccountState } from '../state.js';
import type { Position } from '../types.js';
import type { TaxPlan } from './plan.js';

const NO_POSITIONS: readonly Position[] = [];

export function holdingLots(st: AccountState, plan: TaxPlan): void {
  const byProduct = new Map<number, Position[]>();
  for (const p of st.snap.positions) {
    const list = byProduct.get(p.productId);
    if (list) list.push(p);
    else byProduct.set(p.productId, [p]);
  }
  for (const line of st.lines) {
    for (const h of line.holdings) {
      h.tax = plan;
      h.lotSource = byProduct.get(h.product.id) ?? NO_POSITIONS;
      h.rawLots = null;
      h.lots = null;
    }
  }
}
