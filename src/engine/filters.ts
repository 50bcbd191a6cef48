// Trade filters of the request: minTradeAmount, minTradePercent, maxTrades.
// Sells are filtered before buys are planned, so the buys only ever spend the
// proceeds of sells that will really be sent.

import { resetBuys } from './buys.js';
import { formatDollars } from './money.js';
import type { AccountState, Holding, Line } from './state.js';
import { retally } from './tax/caps.js';

function dropSell(st: AccountState, h: Holding, why: string): void {
  st.message('Warning', 'TRADE_DROPPED', `sell ${h.sold} ${h.product.ticker} (${formatDollars(h.soldCents / 100)}) dropped: ${why}`, h.product.id);
  st.sellsFrozen = true;
  st.sellCents -= h.soldCents;
  h.line.now += h.sold * h.price;
  h.sold = 0;
  h.soldCents = 0;
  h.reason = '';
  if (h.lotSource !== null) retally(h);
}

function dropBuy(st: AccountState, line: Line, why: string): void {
  const p = line.buyProduct;
  if (!p) return;
  st.message('Warning', 'TRADE_DROPPED', `buy ${line.bought} ${p.ticker} (${formatDollars(line.boughtCents / 100)}) dropped: ${why}`, p.id);
  st.buyCents -= line.boughtCents;
  line.now -= line.bought * (p.price as number);
  line.bought = 0;
  line.boughtCents = 0;
  line.buyReason = '';
  line.buyDropped = true;
}

export function dropSmallSells(st: AccountState): void {
  const { minTradeAmount, minTradePercent } = st.settings;
  if (minTradeAmount <= 0 && minTradePercent <= 0) return;
  for (const line of st.lines) {
    for (const h of line.holdings) {
      if (h.sold <= 0) continue;
      const pct = (h.sold / h.shares) * 100;
      if (minTradePercent > 0 && pct < minTradePercent - 1e-9) {
        dropSell(st, h, `${pct.toFixed(2)}% of the position is below minTradePercent ${minTradePercent}%`);
      } else if (h.soldCents < minTradeAmount * 100 - 1e-6) {
        dropSell(st, h, `below minTradeAmount ${formatDollars(minTradeAmount)}`);
      }
    }
  }
}

export function dropSmallBuys(st: AccountState): void {
  const min = st.settings.minTradeAmount;
  if (min <= 0) return;
  for (const line of st.lines) {
    if (line.bought > 0 && line.boughtCents < min * 100 - 1e-6) dropBuy(st, line, `below minTradeAmount ${formatDollars(min)}`);
  }
}

interface Entry {
  readonly cents: number;
  readonly holding: Holding | null;
  readonly line: Line;
  readonly ticker: string;
  readonly id: number;
}

function entries(st: AccountState, withSells: boolean): Entry[] {
  const out: Entry[] = [];
  for (const line of st.lines) {
    if (withSells) for (const h of line.holdings) if (h.sold > 0) out.push({ cents: h.soldCents, holding: h, line, ticker: h.product.ticker, id: h.product.id });
    if (line.bought > 0 && line.buyProduct) out.push({ cents: line.boughtCents, holding: null, line, ticker: line.buyProduct.ticker, id: line.buyProduct.id });
  }
  // Largest dollars first; on a tie sells before buys (they fund them), then ticker.
  out.sort((a, b) => b.cents - a.cents || (a.holding ? 0 : 1) - (b.holding ? 0 : 1) || (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : a.id - b.id));
  return out;
}

/** Keeps the largest trades by dollars; when a sell goes, buys are recomputed with the smaller cash. */
export function enforceMaxTrades(st: AccountState, replan: ((s: AccountState) => void) | null): void {
  const max = Math.max(0, Math.floor(st.settings.maxTrades));
  let count = 0;
  for (const line of st.lines) {
    if (line.bought > 0) count++;
    for (const h of line.holdings) if (h.sold > 0) count++;
  }
  if (count <= max) return;
  const all = entries(st, true);
  const why = `beyond maxTrades ${max}`;
  let sellDropped = false;
  let sells = 0;
  for (let i = 0; i < all.length; i++) {
    const e = all[i] as Entry;
    if (i < max) {
      if (e.holding) sells++;
      continue;
    }
    if (e.holding) {
      dropSell(st, e.holding, why);
      sellDropped = true;
    } else {
      dropBuy(st, e.line, why);
    }
  }
  if (!sellDropped) return;
  resetBuys(st);
  if (replan) {
    replan(st);
    dropSmallBuys(st);
  }
  const buys = entries(st, false);
  for (let i = Math.max(0, max - sells); i < buys.length; i++) dropBuy(st, (buys[i] as Entry).line, why);
}
