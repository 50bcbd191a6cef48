// Each holding of a taxable account knows the positions its lots come from; the lots themselves
// are read only for the holdings a run sells or harvests (rawLotsOf, then tax/caps.ts lotsOf): a
// direct-indexing account holds hundreds of positions and sells a few, and a loader may hand the
// lots over unparsed until asked. buildState gives each holding its positions as it adds them up
// (no map of the account's positions by product to build); here the rest of the holdings, those
// only pending items or orders brought, get none.

import type { AccountState } from '../state.js';
import type { Position } from '../types.js';
import type { TaxPlan } from './plan.js';

const NO_POSITIONS: readonly Position[] = [];

export function holdingLots(st: AccountState, plan: TaxPlan): void {
  for (const line of st.lines) {
    for (const h of line.holdings) {
      h.tax = plan;
      if (h.lotSource === null) h.lotSource = NO_POSITIONS;
      h.rawLots = null;
      h.lots = null;
    }
  }
}
