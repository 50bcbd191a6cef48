import { marketValueCents } from '../shared/money.js';

export interface HeldRow {
  account_id: number;
  shares_micros: number;
  price_micros: number | null;
}

/**
 * Each account's priced holdings in cents. An unpriced position adds nothing: it has no value to
 * show (a rebalance reports it as an error instead).
 */
export function heldValueCents(rows: readonly HeldRow[]): Map<number, number> {
  const held = new Map<number, number>();
  for (const row of rows) {
    if (row.price_micros === null) continue;
    held.set(row.account_id, (held.get(row.account_id) ?? 0) + marketValueCents(Number(row.shares_micros), Number(row.price_micros)));
  }
  return held;
}
