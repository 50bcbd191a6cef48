// Buy allocation: buys spend only the cash above the cash target, in whole
// cents, so no buy ever takes cash below its target or below protected cash.

import { floorShares, toCents } from './money.js';
import type { WhyCode } from './reasons.js';
import { ROUNDING_MARGIN } from './sells.js';
import { recordBuy, type AccountState, type Line } from './state.js';
import { BuyPriority } from './types.js';

function buyRank(line: Line): number {
  if (line.buyPriority === BuyPriority.PriorityBuy) return 0;
  if (line.buyPriority === BuyPriority.HardToBuy) return 2;
  return 1;
}

// Priority Buy first, Hard To Buy last, then the earlier phase, then the largest shortfall.
function buyOrder(a: Line, b: Line): number {
  const r = buyRank(a) - buyRank(b);
  if (r !== 0) return r;
  if (a.tier !== b.tier) return a.tier - b.tier;
  if (a.want !== b.want) return b.want - a.want;
  return a.key - b.key;
}

/** Dollars of a want that whole units can fill; a want below one unit cannot be bought (only rounded up). */
export function buyableWant(line: Line): number {
  const price = line.buyProduct?.price;
  if (!price || price <= 0 || line.want <= 0) return 0;
  return floorShares(line.want / price, line.buyDecimals) * price;
}

export function noteNoPrice(st: AccountState, line: Line): void {
  const p = line.buyProduct;
  if (!p) return;
  const code = 'NO_PRICE';
  for (const m of st.messages) if (m.code === code && m.productId === p.id) return;
  st.message('Error', code, `${p.ticker} has no price; it cannot be bought`, p.id);
}

/**
 * Fills `line.want` dollars for each line, in priority order, with the cash
 * above the target. Leaves the unfilled rest in `line.want`. A second pass
 * gives the rounding margin (see ROUNDING_MARGIN) from leftover cash only, so
 * the margin of one line never starves the next.
 */
export function allocateBuys(st: AccountState, lines: Line[], why: WhyCode): void {
  if (lines.length > 1) lines.sort(buyOrder);
  let allFilled = true;
  for (const line of lines) {
    if (line.buyDropped || line.want <= 0 || !line.buyProduct) continue;
    const price = line.buyProduct.price;
    if (price === null || !(price > 0)) {
      noteNoPrice(st, line);
      line.want = 0;
      continue;
    }
    if (line.buyPriority === BuyPriority.HardToBuy && !allFilled) continue;
    const s = buyUpTo(st, line, price, line.want, why);
    line.want -= s * price;
    if (line.want >= price / 10 ** line.buyDecimals - 1e-9) allFilled = false;
  }
  for (const line of lines) {
    const price = line.buyProduct?.price;
    if (line.buyDropped || line.want <= 0 || !price || !(price > 0)) continue;
    if (line.buyPriority === BuyPriority.HardToBuy && !allFilled) continue;
    const unitValue = price / 10 ** line.buyDecimals;
    // The margin completes a buy; on its own it does not start one (a line
    // left short of its last unit is then judged the same way by a later run).
    if (line.bought <= 0 || unitValue <= ROUNDING_MARGIN || line.want < unitValue - ROUNDING_MARGIN) continue;
    const s = buyUpTo(st, line, price, unitValue, why);
    line.want -= s * price;
  }
}

function buyUpTo(st: AccountState, line: Line, price: number, want: number, why: WhyCode): number {
  const avail = st.availableCents();
  if (avail <= 0) return 0;
  const dollars = want < avail / 100 ? want : avail / 100;
  const f = 10 ** line.buyDecimals;
  let s = floorShares(dollars / price, line.buyDecimals);
  while (s > 0 && toCents((line.bought + s) * price) - line.boughtCents > avail) s = (Math.round(s * f) - 1) / f;
  if (s > 0) recordBuy(st, line, s, why);
  return s;
}

/** LowestPrice: after rounding down, add one unit to the cheapest whole-share buys while cash allows. */
export function roundUpLowestPrice(st: AccountState, lines: Line[], why: WhyCode, whyLater: WhyCode): void {
  const cands: Line[] = [];
  for (const line of lines) {
    const p = line.buyProduct;
    if (!p || line.buyDropped || line.want <= 1e-9 || p.price === null || !(p.price > 0)) continue;
    // Only a rounding remainder is rounded up; a buy cut by cash stays cut,
    // and while one is cut no other buy is rounded up with the cash it lacks
    // (a later run would sell the extra unit to fund the cut buy).
    if (line.want >= p.price / 10 ** line.buyDecimals - 1e-9) return;
    // Only a buy is rounded up: a line that rounded down to nothing has none.
    if (line.bought <= 0) continue;
    if (p.type !== 'Equity' && p.type !== 'ETF') continue;
    // A remainder within twice the rounding margin is not rounded up: the line
    // would end almost a whole unit over target, and the margin of a later
    // run's drift sell (one margin) would sell it back; the second margin keeps
    // the two decisions apart by more than the binary noise of the values.
    if (line.want <= 2 * ROUNDING_MARGIN) continue;
    cands.push(line);
  }
  if (cands.length === 0) return;
  cands.sort((a, b) => (a.buyProduct?.price as number) - (b.buyProduct?.price as number) || a.key - b.key);
  for (const line of cands) {
    const price = line.buyProduct?.price as number;
    const unit = 1 / 10 ** line.buyDecimals;
    if (line.buyPriority === BuyPriority.BuyToTarget && line.now + unit * price > line.targetDollars + 0.005) continue;
    const cost = toCents((line.bought + unit) * price) - line.boughtCents;
    if (cost <= st.availableCents()) {
      recordBuy(st, line, unit, line.tier === 0 ? why : whyLater);
      line.want = 0;
    }
  }
}

/** Undoes every buy that a filter has not already dropped, so buys can be recomputed after sells changed. */
export function resetBuys(st: AccountState): void {
  for (const line of st.lines) {
    if (line.bought > 0 && line.buyProduct) {
      line.now -= line.bought * (line.buyProduct.price as number);
      st.buyCents -= line.boughtCents;
      line.bought = 0;
      line.boughtCents = 0;
      line.buyReason = '';
    }
    line.want = 0;
    line.tier = 0;
  }
}
