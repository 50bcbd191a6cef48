import { marketValueCents } from './money.js';
import { plainInteger } from './plain-integer.js';

/** An account's priced holdings as src/db/holdings.ts pricedHoldingsByAccount reads them. */
export interface HeldRow {
  account_id: number;
  /** "<shares_micros> <price_micros>" pairs, space-separated. */
  held: string;
}

/**
 * The numbers of a held text, "<a> <b> …", read without a string for each: splitting it made one
 * per number, 0.5 ms of a page of households. What is not a plain integer (shared/plain-integer.ts)
 * is read by Number, as split read it.
 */
export function numbersOf(text: string): number[] {
  const numbers: number[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf(' ', start);
    if (end < 0) end = text.length;
    if (end > start) {
      const value = plainInteger(text, start, end);
      numbers.push(Number.isNaN(value) ? Number(text.slice(start, end)) : value);
    }
    start = end + 1;
  }
  return numbers;
}

/**
 * Each account's priced holdings in cents, each holding rounded on its own. An unpriced position
 * adds nothing: it has no value to show (a rebalance reports it as an error instead).
 */
export function heldValueCents(rows: readonly HeldRow[]): Map<number, number> {
  const held = new Map<number, number>();
  for (const row of rows) {
    const numbers = numbersOf(row.held);
    let cents = 0;
    for (let i = 0; i + 1 < numbers.length; i += 2) cents += marketValueCents(numbers[i] as number, numbers[i + 1] as number);
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
    const numbers = numbersOf(row.held);
    let dollars = 0;
    for (let i = 0; i + 1 < numbers.length; i += 2) dollars += ((numbers[i] as number) / 1e6) * ((numbers[i + 1] as number) / 1e6);
    held.set(row.account_id, (held.get(row.account_id) ?? 0) + dollars);
  }
  return held;
}
