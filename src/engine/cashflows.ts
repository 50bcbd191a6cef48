// Withdraw, Add and Withdraw100Pct: rebalances driven by a cash flow rather
// than by drift. Withdraw only sells, Add only buys.

import { allocateBuys, roundUpLowestPrice } from './buys.js';
import { formatDollars } from './money.js';
import { Why } from './reasons.js';
import { HALF_CENT, overweightLines, sellFromHolding, sellFromLine } from './sells.js';
import { recordSell, sellableShares, type AccountState, type Line } from './state.js';
import { BuyPriority, SellPriority } from './types.js';

/** Raises the cash target (already raised by the amount) from Priority Sell, overweights, pro rata, then Hard To Sell. */
export function withdrawSells(st: AccountState): void {
  let need = st.cashTarget - st.cashNow();
  if (need <= HALF_CENT) {
    st.message('Info', 'WITHDRAW_COVERED', `cash already covers the withdrawal of ${formatDollars(st.settings.amount)}; nothing to sell`);
    return;
  }
  const over = overweightLines(st, false);
  for (const line of over) {
    for (const h of line.holdings) {
      if (need <= HALF_CENT) break;
      if (h.sellPriority === SellPriority.PrioritySell) need -= sellFromHolding(st, h, need, true, false, Why.WithdrawPrioritySell);
    }
  }
  for (const line of st.lines) {
    if (need <= HALF_CENT) break;
    if (over.includes(line)) continue;
    for (const h of line.holdings) {
      if (h.sellPriority === SellPriority.PrioritySell) need -= sellFromHolding(st, h, need, true, false, Why.WithdrawPrioritySell);
    }
  }
  for (const line of over) {
    if (need <= HALF_CENT) break;
    need -= sellFromLine(st, line, need, true, false, true, Why.WithdrawOverweight);
  }
  // Pro rata to targets; a line that runs out of sellable shares passes its
  // share to the others on the next pass.
  for (let pass = 0; pass < 8 && need > HALF_CENT; pass++) {
    let total = 0;
    const elig: Line[] = [];
    for (const line of st.lines) {
      if (line.target <= 0) continue;
      let cap = 0;
      for (const h of line.holdings) cap += sellableShares(h, false);
      if (cap > 0) {
        elig.push(line);
        total += line.target;
      }
    }
    if (total <= 0) break;
    const round = need;
    for (const line of elig) {
      if (need <= HALF_CENT) break;
      need -= sellFromLine(st, line, (round * line.target) / total, true, false, false, Why.WithdrawProRata);
    }
  }
  const hard = overweightLines(st, false);
  for (const line of [...hard, ...st.lines.filter((l) => !hard.includes(l))]) {
    if (need <= HALF_CENT) break;
    need -= sellFromLine(st, line, need, true, true, false, Why.WithdrawHardToSell);
  }
  if (need > HALF_CENT) {
    st.message('Warning', 'WITHDRAW_SHORT', `withdrawal of ${formatDollars(st.settings.amount)} is short by ${formatDollars(need)}: no more shares may be sold`);
  }
}

/** Spends the cash above target on underweight lines first, then pro rata to targets. */
export function addBuys(st: AccountState): void {
  if (st.availableCents() <= 0) {
    st.message('Info', 'NOTHING_TO_INVEST', 'no cash above the cash target to invest');
    return;
  }
  const under: Line[] = [];
  for (const line of st.lines) {
    if (!line.buyProduct || line.buyDropped || !line.inModel) continue;
    const gap = line.targetDollars - line.now;
    if (gap > HALF_CENT) {
      line.want = gap;
      line.tier = 0;
      under.push(line);
    }
  }
  allocateBuys(st, under, Why.AddUnderweight);
  const rest = st.availableCents() / 100;
  const all = [...under];
  if (rest > HALF_CENT) {
    const pro: Line[] = [];
    let total = 0;
    for (const line of st.lines) {
      if (!line.buyProduct || line.buyDropped || !line.inModel || line.target <= 0) continue;
      if (line.buyPriority === BuyPriority.BuyToTarget && line.now >= line.targetDollars - HALF_CENT) continue;
      pro.push(line);
      total += line.target;
    }
    for (const line of pro) {
      let want = (rest * line.target) / total;
      if (line.buyPriority === BuyPriority.BuyToTarget) want = Math.min(want, line.targetDollars - line.now);
      line.want = want;
      line.tier = 1;
      if (!all.includes(line)) all.push(line);
    }
    allocateBuys(st, pro, Why.AddProRata);
  }
  if (st.settings.rounding === 'LowestPrice') roundUpLowestPrice(st, all, Why.AddUnderweight, Why.AddProRata);
}

/** Sells every share except Do Not Sell, which is kept with a warning. */
export function withdrawAllSells(st: AccountState): void {
  for (const line of st.lines) {
    for (const h of line.holdings) {
      if (h.shares <= 0) continue;
      if (h.sellPriority === SellPriority.DoNotSell) {
        st.message('Warning', 'DO_NOT_SELL_KEPT', `${h.product.ticker} is Do Not Sell; ${h.shares} shares kept`, h.product.id);
        continue;
      }
      // Closing the account overrides every other priority: all shares go.
      recordSell(st, h, h.shares - h.sold, Why.SellAll);
    }
  }
}
