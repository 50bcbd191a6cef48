// Sell routines shared by every rebalance type. Drift sells (back to target)
// round shares down; cash-raising sells round up so the cash that is needed is
// actually raised, but never past the shares the priority allows.

import { ceilShares, floorShares, unitOf } from './money.js';
import type { WhyCode } from './reasons.js';
import { prioritySellable, recordSell, sellableShares, type AccountState, type Holding, type Line } from './state.js';
import { lotsOf } from './tax/caps.js';

export const HALF_CENT = 0.005;
/**
 * Rounding down is given a five-cent margin: a trade that falls short of its
 * dollars by less than that takes the extra unit. Without it the sub-cent
 * revaluation after trades (cash moves by cents, holdings by price × shares)
 * could make a second run find the last unit and trade it.
 */
export const ROUNDING_MARGIN = 0.05;

/** Whole units for `dollars`, plus one more unit when the rest is within the cent margin of it. */
export function floorWithMargin(dollars: number, price: number, decimals: number): number {
  const s = floorShares(dollars / price, decimals);
  const unit = unitOf(decimals);
  const unitValue = unit * price;
  if (unitValue > ROUNDING_MARGIN && dollars - s * price >= unitValue - ROUNDING_MARGIN) return Math.round((s + unit) / unit) * unit;
  return s;
}

/** Sells up to `dollars` of one holding; returns the dollars raised. */
export function sellFromHolding(st: AccountState, h: Holding, dollars: number, roundUp: boolean, allowHardToSell: boolean, why: WhyCode): number {
  if (dollars <= HALF_CENT) return 0;
  const cap = sellableShares(h, allowHardToSell);
  let s = roundUp ? ceilShares(dollars / h.price, h.decimals) : floorWithMargin(dollars, h.price, h.decimals);
  if (h.tax !== null && s > cap) noteTaxCut(h, s, cap, allowHardToSell);
  if (cap <= 0) return 0;
  if (s > cap) s = cap;
  if (s <= 0) return 0;
  const before = h.line.now;
  recordSell(st, h, s, why);
  return before - h.line.now;
}

/**
 * Sells up to `dollars` from a line, holdings in sell order. With
 * `floorAtTarget` the line is not taken below its target dollars (by more
 * than the rounding of the last share when rounding up).
 */
export function sellFromLine(
  st: AccountState,
  line: Line,
  dollars: number,
  roundUp: boolean,
  allowHardToSell: boolean,
  floorAtTarget: boolean,
  why: WhyCode,
): number {
  let remaining = dollars;
  if (floorAtTarget) {
    const room = line.now - line.targetDollars;
    if (room < remaining) remaining = room;
  }
  let raised = 0;
  for (const h of line.holdings) {
    if (remaining <= HALF_CENT) break;
    const got = sellFromHolding(st, h, remaining, roundUp, allowHardToSell, why);
    raised += got;
    remaining -= got;
  }
  return raised;
}

/** Sells every share the priorities allow (target 0, or Withdraw100Pct). */
export function sellAllOfLine(st: AccountState, line: Line, allowHardToSell: boolean, why: WhyCode): void {
  for (const h of line.holdings) {
    const cap = sellableShares(h, allowHardToSell);
    if (h.tax !== null) noteTaxCut(h, prioritySellable(h, allowHardToSell), cap, allowHardToSell);
    if (cap > 0) recordSell(st, h, cap, why);
  }
}

/**
 * Remembers that the tax rules kept a sell of `wanted` shares down to `cap`: the budget when the
 * wash-sale rule alone would have allowed more, else the wash-sale rule. Reported once the plan is
 * final (tax/notes.ts).
 */
function noteTaxCut(h: Holding, wanted: number, cap: number, allowHardToSell: boolean): void {
  const byPriority = prioritySellable(h, allowHardToSell);
  const want = wanted < byPriority ? wanted : byPriority;
  const cut = want - (cap > 0 ? cap : 0);
  if (cut <= 1e-9 || h.lotSource === null || h.frozen) return;
  // The relief order (and with it the shares not held back) is built when first needed; the note needs it.
  lotsOf(h);
  const plan = h.tax;
  const unheld = (plan !== null && plan.forcingWash ? h.shares : h.freeShares) - h.sold;
  h.taxCut = cut;
  h.taxCutByBudget = unheld > cap + 1e-9;
}

function byOverweight(a: Line, b: Line): number {
  const d = b.now - b.targetDollars - (a.now - a.targetDollars);
  return d !== 0 ? d : a.key - b.key;
}

// `sellRank` is 0 for a line with a Priority Sell holding, 1 otherwise,
// computed once per sort rather than once per comparison.
function byPrioritySellThenOverweight(a: Line, b: Line): number {
  return a.sellRank !== b.sellRank ? a.sellRank - b.sellRank : byOverweight(a, b);
}

/** Lines above their target, most overweight first; ties by product id for a stable order. */
export function overweightLines(st: AccountState, prioritySellFirst: boolean): Line[] {
  const out: Line[] = [];
  for (const line of st.lines) if (line.now - line.targetDollars > HALF_CENT && line.holdings.length > 0) out.push(line);
  if (out.length > 1) {
    if (prioritySellFirst) {
      for (const line of out) line.sellRank = hasPrioritySell(line) ? 0 : 1;
      out.sort(byPrioritySellThenOverweight);
    } else {
      out.sort(byOverweight);
    }
  }
  return out;
}

export function hasPrioritySell(line: Line): boolean {
  for (const h of line.holdings) if (h.sellPriority === 6 && h.shares - h.sold > 0) return true;
  return false;
}

/** Whether the current plan sells any holding of the line (such a line is not bought in the same run). */
export function lineSold(line: Line): boolean {
  for (const h of line.holdings) if (h.sold > 0) return true;
  return false;
}
