// Helpers to feed a result back in: as open orders (what the trading API
// stores until execution), or applied to the holdings (the post-trade portfolio).

import type { AccountResult, AccountSnapshot, PendingItem, Position } from './types.js';

/** Trades as open orders: a later run with assetValues counting orders sees them as done. */
export function tradesAsOpenOrders(result: AccountResult, tradeInstanceId?: number): PendingItem[] {
  const of = tradeInstanceId === undefined ? {} : { tradeInstanceId };
  return result.trades.map((t) => (t.side === 'Buy' ? { productId: t.productId, shares: t.shares, cash: -t.estimatedAmount, ...of } : { productId: t.productId, shares: -t.shares, cash: t.estimatedAmount, ...of }));
}

/** The snapshot after the trades executed at their estimated amounts. */
export function applyTrades(snap: AccountSnapshot, result: AccountResult): AccountSnapshot {
  const shares = new Map<number, number>();
  for (const p of snap.positions) shares.set(p.productId, (shares.get(p.productId) ?? 0) + p.shares);
  let cash = snap.custodialCash;
  for (const t of result.trades) {
    const held = shares.get(t.productId) ?? 0;
    shares.set(t.productId, t.side === 'Buy' ? held + t.shares : held - t.shares);
    cash += t.side === 'Buy' ? -t.estimatedAmount : t.estimatedAmount;
  }
  const byId = new Map<number, Position>();
  for (const p of snap.positions) if (!byId.has(p.productId)) byId.set(p.productId, p);
  const positions: Position[] = [];
  for (const [productId, s] of [...shares.entries()].sort((a, b) => a[0] - b[0])) {
    if (s <= 1e-12) continue;
    const old = byId.get(productId);
    const held = snap.positions.filter((p) => p.productId === productId).reduce((a, p) => a + p.shares, 0);
    const costBasis = old?.costBasis != null && held > 0 ? (old.costBasis * s) / held : old?.costBasis;
    positions.push({ productId, shares: s, costBasis });
  }
  return { ...snap, positions, custodialCash: cash };
}
