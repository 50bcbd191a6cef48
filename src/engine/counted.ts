// The message that says earlier orders shaped a result: when a run counts open orders (trades of an
// open trade instance, cash a registration rebalance moves between sleeves) or pending transactions
// as if they were done, the account's messages say which trade instance and how much.

import { formatDollars } from './money.js';
import type { AccountState } from './state.js';
import type { PendingItem } from './types.js';

/** The one message code of counted earlier items; kept by every batch (src/trading/runner.ts). */
export const EARLIER_ORDERS_COUNTED = 'EARLIER_ORDERS_COUNTED';

interface Tally {
  items: number;
  buys: number;
  sells: number;
  /** Cash-only items: deposits, withdrawals, sleeve transfers (signed, into the account positive). */
  cash: number;
}

function tallies(items: readonly PendingItem[]): Map<number | null, Tally> {
  const out = new Map<number | null, Tally>();
  for (const it of items) {
    const key = it.tradeInstanceId ?? null;
    let t = out.get(key);
    if (!t) out.set(key, (t = { items: 0, buys: 0, sells: 0, cash: 0 }));
    t.items++;
    if (it.productId === null || it.shares === 0) t.cash += it.cash;
    else if (it.shares > 0) t.buys -= it.cash;
    else t.sells += it.cash;
  }
  return out;
}

function amounts(t: Tally): string {
  const parts: string[] = [];
  if (Math.abs(t.buys) >= 0.005) parts.push(`buys ${formatDollars(t.buys)}`);
  if (Math.abs(t.sells) >= 0.005) parts.push(`sells ${formatDollars(t.sells)}`);
  if (Math.abs(t.cash) >= 0.005) parts.push(`cash ${t.cash > 0 ? 'in' : 'out'} ${formatDollars(Math.abs(t.cash))}`);
  return parts.length > 0 ? parts.join(', ') : formatDollars(0);
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One Info message per trade instance whose open orders were counted, and one for pending transactions. */
export function countedNotes(st: AccountState, pending: readonly PendingItem[] | undefined, orders: readonly PendingItem[] | undefined): void {
  if (pending && pending.length > 0) {
    for (const t of tallies(pending).values()) {
      st.message('Info', EARLIER_ORDERS_COUNTED, `${plural(t.items, 'pending transaction', 'pending transactions')} counted as settled: ${amounts(t)}`);
    }
  }
  if (orders && orders.length > 0) {
    const byInstance = [...tallies(orders)].sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
    for (const [instance, t] of byInstance) {
      const of = instance === null ? '' : ` of trade instance ${instance}`;
      st.message('Info', EARLIER_ORDERS_COUNTED, `${plural(t.items, 'open order', 'open orders')}${of} counted as executed: ${amounts(t)}`);
    }
  }
}
