// The messages of a tax-aware account once its plan is final: budget cuts, wash-sale moves and
// forced wash sales, a withdrawal past the budget. Counted into the household's summary as well.

import { amount as formatDollars } from './amount.js';
import type { AccountState } from '../state.js';
import { gainOfPrefix } from './lots.js';

/** The Info messages that explain a tax-aware run's harvests and wash-sale decisions; a batch stores them. */
export const TAX_INFO_CODES: ReadonlySet<string> = new Set(['HARVESTED', 'HARVEST_SKIPPED', 'WASH_SALE_KEPT', 'WASH_SALE_MOVED']);

function termText(short: number, long: number): string {
  const parts: string[] = [];
  if (short > 0.005) parts.push(`${formatDollars(short)} short-term`);
  if (long > 0.005) parts.push(`${formatDollars(long)} long-term`);
  return parts.join(' and ');
}

export function taxNotes(st: AccountState): void {
  const plan = st.tax;
  if (plan === null) return;
  for (const line of st.lines) {
    for (const h of line.holdings) {
      const lots = h.lots;
      if (lots === null) continue;
      const ticker = h.product.ticker;
      if (h.taxCut > 1e-9) {
        if (h.taxCutByBudget) {
          const upTo = gainOfPrefix(lots, h.sold + h.taxCut);
          const over = termText(upTo.short - h.gainShort, upTo.long - h.gainLong);
          st.message('Warning', 'TAX_BUDGET_CUT', `${h.taxCut} shares of ${ticker} not sold: ${over || formatDollars(0)} gain over budget`, h.product.id);
          plan.budgetCuts++;
        } else {
          st.message('Info', 'WASH_SALE_KEPT', `${h.taxCut} shares of ${ticker} at a loss kept: ${ticker} was bought in the household within 30 days`, h.product.id);
        }
      }
      if (h.sold > h.freeShares + 1e-9) {
        const free = gainOfPrefix(lots, h.freeShares);
        const loss = -(h.gainShort + h.gainLong - free.short - free.long);
        st.message(
          'Warning',
          'WASH_SALE_FORCED',
          `sold ${Math.round((h.sold - h.freeShares) * 1e6) / 1e6} shares of ${ticker} at a loss within 30 days of a buy in the household to raise cash: the loss of ${formatDollars(loss)} will be disallowed (wash sale)`,
          h.product.id,
        );
      }
    }
    if (line.washMovedFrom && line.buyProduct && line.bought > 0) {
      st.message('Info', 'WASH_SALE_MOVED', `buy of ${line.washMovedFrom.ticker} moved to ${line.buyProduct.ticker}: ${line.washCause}`, line.buyProduct.id);
      plan.washMoves++;
    } else if (line.washBlocked && line.washMovedFrom && line.inModel && line.now < line.targetDollars - 0.5) {
      st.message('Warning', 'WASH_SALE_CASH', `${line.washMovedFrom.ticker} not bought: ${line.washCause}, and no equivalent may be bought; its money stays in cash`, line.washMovedFrom.id);
      plan.washMoves++;
    }
  }
  if (plan.forceBudget) {
    const overShort = plan.plannedShort - plan.budgetShort;
    const overLong = plan.plannedLong - plan.budgetLong;
    if (overShort > 0.005 || overLong > 0.005) {
      st.message('Warning', 'TAX_BUDGET_EXCEEDED', `the ${st.settings.reason} sells exceed the household's gains budget by ${termText(overShort, overLong)}`);
    }
  }
}
