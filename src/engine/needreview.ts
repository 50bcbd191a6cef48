// NeedReview: trade out-of-tolerance lines back to target, keep cash at its
// target, invest cash in excess of its tolerance. See docs/rebalancing.md.

import { allocateBuys, buyableWant, roundUpLowestPrice } from './buys.js';
import { formatDollars } from './money.js';
import { Why } from './reasons.js';
import { unitOf } from './money.js';
import { HALF_CENT, lineSold, overweightLines, ROUNDING_MARGIN, sellAllOfLine, sellFromLine } from './sells.js';
import { sellableShares, type AccountState, type Line } from './state.js';

const CENT = 0.05;

// Differences of two cents or less are what rounding to cents (and the cent margin of rounding down) leave behind
// (values carry sub-cent prices, cash does not); they never trigger a trade.
function noise(st: AccountState): number {
  return 0.1 + 1e-9 * st.basis;
}

function outOfTolerance(st: AccountState, line: Line): boolean {
  if (!line.inModel) return line.value > 0;
  const n = noise(st);
  if (st.settings.exactTrades) return Math.abs(line.value - line.targetDollars) > n;
  const I = st.basis;
  return line.value < line.targetDollars - (line.lowerPct / 100) * I - n || line.value > line.targetDollars + (line.upperPct / 100) * I + n;
}

/** Sells back to target, then raises any cash still short of the cash target plus the buys to come. */
export function needReviewSells(st: AccountState): void {
  const I = st.basis;
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
  if (short > CENT) st.cashShort = raiseNeededCash(st, short);
}

/**
 * Raises `short` dollars. In a tax-aware run, cash below its target is cash that is needed:
 * wash-sale rule 2 gives way while that part is raised (with a Warning), not while the buys to
 * come are funded.
 */
function raiseNeededCash(st: AccountState, short: number): boolean {
  const tax = st.tax;
  if (tax === null) return raiseCash(st, short, Why.CashShort, Why.CashShortHardToSell) > HALF_CENT;
  const below = Math.min(short, st.cashTarget - st.cashNow());
  let left = short;
  if (below > CENT) {
    tax.forcingWash = true;
    left -= below - raiseCash(st, below, Why.CashShort, Why.CashShortHardToSell);
    tax.forcingWash = tax.forceBudget;
  }
  if (left > CENT) left = raiseCash(st, left, Why.CashShort, Why.CashShortHardToSell);
  return left > HALF_CENT;
}

// After the buys: the cents the buys cost above their dollars (each is rounded
// to the cent) can leave cash short of the buys still wanted by more than a
// cent margin, which a second run would raise. Raise it now, and buy again.
function topUp(st: AccountState, drift: Line[]): void {
  if (st.cashShort || st.sellsFrozen) return;
  let wanted = 0;
  for (const line of drift) if (line.want > 0 && !line.buyDropped) wanted += buyableWant(line);
  if (wanted <= 0) return;
  const short = st.cashTarget - (st.cashNow() - wanted);
  if (short <= CENT) return;
  st.cashShort = raiseNeededCash(st, short);
  allocateBuys(st, drift, Why.Drift);
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
  const I = st.basis;
  if (I <= 0) return;
  const drift: Line[] = [];
  for (const line of st.lines) {
    // A line sold by this run (to target, or for cash) is not bought back: the
    // rounding of its sell is not a shortfall.
    if (!line.buyProduct || line.buyDropped || !line.inModel || lineSold(line)) continue;
    if (!outOfTolerance(st, line)) continue;
    const gap = line.targetDollars - line.now;
    if (gap > HALF_CENT) {
      line.want = gap;
      line.tier = 0;
      drift.push(line);
    }
  }
  allocateBuys(st, drift, Why.Drift);
  topUp(st, drift);
  const all = drift;
  const excess = st.cashNow() - st.cashTarget - st.cashUpper * I;
  if (excess > noise(st)) {
    const more: Line[] = [];
    for (const line of st.lines) {
      if (!line.buyProduct || line.buyDropped || !line.inModel || drift.includes(line) || lineSold(line)) continue;
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

// Slack of the check below: it must flag anything a later run could trade, so
// every comparison leans towards "might trade" by more than binary noise.
const SLACK = 1e-6;

/**
 * Whether a NeedReview of the post-trade portfolio, judged on investable value
 * `I` and protected cash `prot`, might trade. Conservative (a false "yes" only
 * costs a re-plan): it follows the triggers of needReviewSells/needReviewBuys
 * (cash short, lines out of tolerance, excess cash) and counts a line as
 * tradable as soon as its distance to target reaches one unit less the
 * rounding margin.
 */
export function mightTradeAgain(st: AccountState, I: number, prot: number): boolean {
  if (I <= 0) return false;
  const cash = st.cashNow();
  const cashTarget = st.cashTargetFraction * I + prot;
  if (cashTarget - cash > CENT - SLACK) return true;
  const n = 0.1 + 1e-9 * I - SLACK;
  const excess = cash - cashTarget - st.cashUpper * I > n;
  const exact = st.settings.exactTrades;
  for (const line of st.lines) {
    const v = line.now;
    if (!line.inModel) {
      if (v > 0) for (const h of line.holdings) if (sellableShares(h, false) > 0) return true;
      continue;
    }
    const t = line.target * I;
    const out = exact ? Math.abs(v - t) > n : v < t - (line.lowerPct / 100) * I - n || v > t + (line.upperPct / 100) * I + n;
    const gap = t - v;
    if (gap > 0 && (out || excess) && line.buyProduct) {
      const unit = (line.buyProduct.price ?? 0) * unitOf(line.buyDecimals);
      if (unit > 0 && gap >= unit - ROUNDING_MARGIN - SLACK) return true;
    } else if (gap < 0 && out) {
      for (const h of line.holdings) {
        if (h.shares - h.sold > 0 && -gap >= h.price * unitOf(h.decimals) - ROUNDING_MARGIN - SLACK) return true;
      }
    }
  }
  return false;
}
