// Rows of the `account_values` and `prices` import entities (shared/design/performance.md,
// docs/import.md): validated against the firm and the rows before them; a duplicate account and
// date (or ticker and date), in the files or already stored, is the row's error.
import { parseDay } from '../engine/performance/days.js';
import { MAX_DOLLARS } from '../shared/money.js';
import type { RowReader } from '../import/fields.js';
import { Lookups } from '../import/lookups-repository.js';

export const ACCOUNT_VALUE_FIELDS = ['account', 'date', 'market_value', 'net_flow', 'fees', 'income'] as const;
export const PRICE_FIELDS = ['ticker', 'date', 'price'] as const;

export interface AccountValueRow {
  account_id: number;
  value_date: string;
  market_value_cents: number | null;
  net_flow_cents: number;
  fees_cents: number;
  income_cents: number;
}

export interface PriceRow {
  product_id: number;
  price_date: string;
  price_micros: number;
}

/**
 * The days already taken per key (an account or product position), as a bit per day from the
 * key's first day: three years of a 10,000-account history cost 1.4 MB, not 7.5 million strings.
 */
export class DaysTaken {
  private readonly bits = new Map<number, { base: number; set: Uint8Array }>();

  /** The keys any day was marked for. */
  keys(): number[] {
    return [...this.bits.keys()];
  }

  /** Marks the day; false when it was marked already. */
  add(key: number, day: number): boolean {
    let entry = this.bits.get(key);
    if (!entry) this.bits.set(key, (entry = { base: day - 1024, set: new Uint8Array(512) }));
    if (day < entry.base) {
      const base = day - 1024;
      const grown = new Uint8Array(entry.set.length + Math.ceil((entry.base - base) / 8) + 1);
      const shift = entry.base - base;
      // Re-mark every set day under the new base (rare: files are mostly in date order).
      for (let i = 0; i < entry.set.length * 8; i++) if (entry.set[i >> 3]! & (1 << (i & 7))) grown[(i + shift) >> 3]! |= 1 << ((i + shift) & 7);
      entry = { base, set: grown };
      this.bits.set(key, entry);
    }
    const offset = day - entry.base;
    if (offset >> 3 >= entry.set.length) {
      const grown = new Uint8Array(Math.max(entry.set.length * 2, (offset >> 3) + 1));
      grown.set(entry.set);
      entry.set = grown;
    }
    const byte = offset >> 3;
    const bit = 1 << (offset & 7);
    if (entry.set[byte]! & bit) return false;
    entry.set[byte]! |= bit;
    return true;
  }
}

/** What the two entities need beside the importer's lookups. */
export interface HistoryLookups {
  valueDays: DaysTaken;
  priceDays: DaysTaken;
  /** Stored (account id, date) and (product id, date) keys the current batch's rows name. */
  storedValues: Set<string>;
  storedPrices: Set<string>;
}

export const historyLookups = (): HistoryLookups => ({ valueDays: new DaysTaken(), priceDays: new DaysTaken(), storedValues: new Set(), storedPrices: new Set() });

const MONEY = { scale: 2, min: -MAX_DOLLARS, max: MAX_DOLLARS };
const key = Lookups.key;

function dateOf(r: RowReader): { date: string; day: number } | null {
  const date = r.date('date', true);
  const day = date ? parseDay(date) : null;
  return date && day !== null ? { date, day } : null;
}

export function accountValueRow(r: RowReader, l: Lookups, h: HistoryLookups, out: AccountValueRow[]): void {
  const number = r.text('account', true, 50);
  const account = l.accountByNumber.get(key(number));
  if (number && account === undefined) r.fail('account', `no account number "${number}" in this firm or earlier in this import`);
  const when = dateOf(r);
  const market = r.scaled('market_value', { ...MONEY, min: 0 }, 2);
  const flow = r.scaled('net_flow', MONEY, 2) ?? 0;
  const fees = r.scaled('fees', { ...MONEY, min: 0 }, 2) ?? 0;
  const income = r.scaled('income', MONEY, 2) ?? 0;
  if (!r.has('market_value') && !r.has('net_flow') && !r.has('fees') && !r.has('income')) {
    r.fail('market_value', 'is required on a row without net_flow, fees or income');
  }
  if (account !== undefined && when) {
    const stored = account < l.accounts.ids.length && h.storedValues.has(`${l.accounts.ids[account]}|${when.date}`);
    if (stored) r.fail('date', `account ${number} already has a value row for ${when.date}`);
    else if (!h.valueDays.add(account, when.day)) r.fail('date', `account ${number} has another row for ${when.date} in this import`);
  }
  if (r.bad || account === undefined || !when) return;
  out.push({ account_id: account, value_date: when.date, market_value_cents: market, net_flow_cents: flow, fees_cents: fees, income_cents: income });
}

export function priceRow(r: RowReader, l: Lookups, h: HistoryLookups, out: PriceRow[]): void {
  const ticker = r.text('ticker', true, 20);
  const product = l.productByTicker.get(key(ticker));
  if (ticker && !product) r.fail('ticker', `no product "${ticker}" in this firm or earlier in this import`);
  const when = dateOf(r);
  const price_micros = r.scaled('price', { required: true, scale: 6, positive: true, max: MAX_DOLLARS }, 6);
  if (product && when) {
    const stored = product.index < l.products.ids.length && h.storedPrices.has(`${l.products.ids[product.index]}|${when.date}`);
    if (stored) r.fail('date', `${ticker.toUpperCase()} already has a price for ${when.date}`);
    else if (!h.priceDays.add(product.index, when.day)) r.fail('date', `${ticker.toUpperCase()} has another price for ${when.date} in this import`);
  }
  if (r.bad || !product || !when || price_micros === null) return;
  out.push({ product_id: product.index, price_date: when.date, price_micros });
}
