import { marketValueCents } from '../shared/money.js';

/** An account's priced holdings as src/db/holdings.ts pricedHoldingsByAccount reads them. */
export interface HeldRow {
  account_id: number;
  /** "<shares_micros> <price_micros>" pairs, space-separated. */
  held: string;
}

/**
 * Each account's priced holdings in cents, each holding rounded on its own. An unpriced position
 * adds nothing: it has no value to show (a rebalance reports it as an error instead).
 */
export function heldValueCents(rows: readonly HeldRow[]): Map<number, number> {
  const held = new Map<number, number>();
  for (const row of rows) {
    const numbers = row.held.split(' ');
    let cents = 0;
    for (let i = 0; i + 1 < numbers.length; i += 2) cents += marketValueCents(Number(numbers[i]), Number(numbers[i + 1]));
    held.set(row.account_id, (held.get(row.account_id) ?? 0) + cents);
  }
  return held;
}

/**
 * Each account's priced holdings in dollars as the rebalancing engine values them: shares × price
 * in floating point, unrounded, summed per account (the rebalancer's account figures and cash
 * needs show the engine's numbers, rounded to cents only at the end).
 */
export function heldDollars(rows: readonly HeldRow[]): Map<number, number> {
  const held = new Map<number, number>();
  for (const row of rows) {
    const numbers = row.held.split(' ');
    let dollars = 0;
    for (let i = 0; i + 1 < numbers.length; i += 2) dollars += (Number(numbers[i]) / 1e6) * (Number(numbers[i + 1]) / 1e6);
    held.set(row.account_id, (held.get(row.account_id) ?? 0) + dollars);
  }
  return held;
}
