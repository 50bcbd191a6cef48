// NeedReview: trade out-of-tolerance lines back to target, keep cash at its
// target, invest cash in excess of its tolerance. See docs/rebalancing.md.

import { allocateBuys, buyableWant, roundUpLowestPrice } from './buys.js';
import { formatDollars } from './money.js';
import { Why } from './reasons.js';
import { HALF_CENT, overweightLines, sellAllOfLine, sellFromLine } from './sells.js';
import type { AccountState, Line } from './state.js';

const CENT = 0.05;

// Differences of two cents or less are what rounding to cents (and the cent margin of rounding down) leave behind
// (values carry sub-cent prices, cash does not); they never trigger a trade.
function noise(st: AccountState): number {
  return 0.1 + 1e-9 * st.investable;
}

function outOfTolerance(st: AccountState, line: Line): boolean {
  if (!line.inModel) return line.value > 0;
  const n = noise(st);
  if (st.settings.exactTrades) return Math.abs(line.value - line.targetDollars) > n;
  const I = st.investable;
  return line.value < line.targetDollars - (line.lowerPct / 100) * I - n || line.value > line.targetDollars + (line.upperPct / 100) * I + n;
}

/** Sells back to target, then raises any cash still short of the cash target plus the buys to come. */
export function needReviewSells(st: AccountState): void {
  const I = st.investable;
  let wanted = 0;
  if (I > 0) {
    for (const line of st.lines) {
      if (line.value <= 0 && line.targetDollars <= 0) continue;
      if (!outOfTolerance(st, line)) continue;
      const diff = line.value - line.targetDollars;
      if (diff > HALF_CENT) {
        if (line.targetDollars <= 0) sellAllOfLine(st, line, false, Why.Drift);
        else sellFromLine(st, line, diff, false, false, true, Why.Drift);
      } else if (diff < -HALF_CENT && line.buyProduct) {
        line.want = -diff;
        wanted += buyableWant(line);
        line.want = 0;
      } else if (diff < -HALF_CENT && line.inModel && !line.buyProduct) {
        st.message('Info', 'NOT_BUYABLE', `${line.ticker} is under its target but no product of its line may be bought here`, line.key);
      }
    }
  }
  const short = st.cashTarget - (st.cashNow() - wanted);
  if (short > CENT) raiseCash(st, short, Why.CashShort, Why.CashShortHardToSell);
}

/** Raises `need` dollars from overweight lines down to their targets, Hard To Sell last. */
export function raiseCash(st: AccountState, need: number, why: typeof Why.CashShort, whyHard: typeof Why.CashShortHardToSell): number {
  const lines = overweightLines(st, true);
  for (const line of lines) {
    if (need <= HALF_CENT) break;
    need -= sellFromLine(st, line, need, true, false, true, why);
  }
  for (const line of lines) {
    if (need <= HALF_CENT) break;
    need -= sellFromLine(st, line, need, true, true, true, whyHard);
  }
  if (need > HALF_CENT && st.investable > 0) {
    st.message('Warning', 'CASH_SHORT', `cash is ${formatDollars(need)} short of its target plus the buys: no overweight product may be sold, so buys are cut back`);
  }
  return need;
}

export function needReviewBuys(st: AccountState): void {
  const I = st.investable;
  if (I <= 0) return;
  const drift: Line[] = [];
  for (const line of st.lines) {
    if (!line.buyProduct || line.buyDropped || !line.inModel) continue;
    if (!outOfTolerance(st, line)) continue;
    const gap = line.targetDollars - line.now;
    if (gap > HALF_CENT) {
      line.want = gap;
      line.tier = 0;
      drift.push(line);
    }
  }
  allocateBuys(st, drift, Why.Drift);
  const all = drift;
  const excess = st.cashNow() - st.cashTarget - st.cashUpper * I;
  if (excess > noise(st)) {
    const more: Line[] = [];
    for (const line of st.lines) {
      if (!line.buyProduct || line.buyDropped || !line.inModel || drift.includes(line)) continue;
      const gap = line.targetDollars - line.now;
      if (gap > noise(st)) {
        line.want = gap;
        line.tier = 1;
        more.push(line);
      }
    }
    allocateBuys(st, more, Why.ExcessCash);
    for (const l of more) all.push(l);
  }
  if (st.settings.rounding === 'LowestPrice') roundUpLowestPrice(st, all, Why.Drift, Why.ExcessCash);
}
