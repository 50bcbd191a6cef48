// What the `account_values` and `prices` import rows are checked against in the database.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { Lookups } from '../import/lookups-repository.js';
import type { Entity, SourceRow } from '../import/sources.js';
import { historyLookups, type HistoryLookups } from './import-rows.js';

const histories = new WeakMap<Lookups, HistoryLookups & { storedAny: { values: boolean; prices: boolean } }>();

/** The history checks of one import, kept beside its lookups. */
export function historyOf(l: Lookups): HistoryLookups {
  const h = histories.get(l);
  if (!h) throw new Error('loadHistoryLookups was not called for this import');
  return h;
}

/**
 * Loads the firm's account numbers and tickers when only history files name them (the importer
 * loads them for its own entities otherwise), and whether any history is stored at all.
 */
export async function loadHistoryLookups(conn: Kysely<Database>, firmId: number, present: Set<Entity>, l: Lookups): Promise<void> {
  const has = (e: Entity) => present.has(e);
  if (has('account_values') && !has('accounts') && !has('positions')) {
    for (const a of await conn.selectFrom('accounts').select(['id', 'number']).where('firm_id', '=', firmId).orderBy('id').execute()) {
      l.accountByNumber.set(Lookups.key(a.number), l.accounts.existing(a.id));
    }
  }
  if (has('prices') && !has('products') && !has('positions')) {
    const rows = await conn.selectFrom('products').select(['id', 'ticker', 'allows_fractional']).where('firm_id', '=', firmId).orderBy('id').execute();
    for (const p of rows) l.productByTicker.set(Lookups.key(p.ticker), { index: l.products.existing(p.id), fractional: p.allows_fractional === 1 });
  }
  const values = has('account_values') && (await conn.selectFrom('account_values').select('account_id').where('firm_id', '=', firmId).limit(1).executeTakeFirst()) !== undefined;
  const prices = has('prices') && (await conn.selectFrom('product_prices').select('product_id').where('firm_id', '=', firmId).limit(1).executeTakeFirst()) !== undefined;
  histories.set(l, { ...historyLookups(), storedAny: { values, prices } });
}

// Accounts (or products) per read of stored keys. Not the bind limit (db/id-chunks.ts): each id
// brings its stored days within the batch's dates, so this bounds the rows one read holds.
const CHUNK = 500;

/** The stored keys a batch of history rows could repeat: its accounts' (or products') rows within its dates. */
export async function loadStoredHistory(conn: Kysely<Database>, firmId: number, entity: Entity, batch: SourceRow[], l: Lookups): Promise<void> {
  const h = histories.get(l);
  if (!h || (entity !== 'account_values' && entity !== 'prices')) return;
  const forValues = entity === 'account_values';
  if (forValues ? !h.storedAny.values : !h.storedAny.prices) return;
  const target = forValues ? h.storedValues : h.storedPrices;
  target.clear();
  const ids = new Set<number>();
  let from = '9999-12-31';
  let to = '0000-01-01';
  for (const row of batch) {
    const name = row.values.get(forValues ? 'account' : 'ticker');
    const date = row.values.get('date');
    if ((typeof name !== 'string' && typeof name !== 'number') || typeof date !== 'string') continue;
    const index = forValues ? l.accountByNumber.get(Lookups.key(String(name))) : l.productByTicker.get(Lookups.key(String(name)))?.index;
    const space = forValues ? l.accounts : l.products;
    if (index === undefined || index >= space.ids.length) continue;
    ids.add(space.ids[index] as number);
    if (date < from) from = date;
    if (date > to) to = date;
  }
  const list = [...ids];
  for (let i = 0; i < list.length; i += CHUNK) {
    const part = list.slice(i, i + CHUNK);
    if (forValues) {
      const rows = await conn
        .selectFrom('account_values')
        .select(['account_id', 'value_date'])
        .where('firm_id', '=', firmId)
        .where('account_id', 'in', part)
        .where('value_date', '>=', from)
        .where('value_date', '<=', to)
        .execute();
      for (const r of rows) target.add(`${r.account_id}|${r.value_date}`);
    } else {
      const rows = await conn
        .selectFrom('product_prices')
        .select(['product_id', 'price_date'])
        .where('firm_id', '=', firmId)
        .where('product_id', 'in', part)
        .where('price_date', '>=', from)
        .where('price_date', '<=', to)
        .execute();
      for (const r of rows) target.add(`${r.product_id}|${r.price_date}`);
    }
  }
}

/**
 * Products whose imported price history reaches their current price's date take the latest price
 * of their history as the current price, as a custodian's price feed would set it: a price dated
 * on or after the current one replaces it; an older one stays history only.
 */
export async function updateCurrentPrices(conn: Kysely<Database>, firmId: number, productIds: readonly number[]): Promise<void> {
  for (let i = 0; i < productIds.length; i += CHUNK) {
    await conn
      .updateTable('products')
      .set((eb) => {
        const latest = eb.selectFrom('product_prices as pp').whereRef('pp.product_id', '=', 'products.id').orderBy('pp.price_date', 'desc').limit(1);
        return { price_micros: latest.select('pp.price_micros'), price_date: latest.select('pp.price_date') };
      })
      .where('firm_id', '=', firmId)
      .where('id', 'in', productIds.slice(i, i + CHUNK))
      .where((eb) => eb.or([eb('price_date', 'is', null), eb('price_date', '<=', eb.selectFrom('product_prices as pp').select((p) => p.fn.max('pp.price_date').as('d')).whereRef('pp.product_id', '=', 'products.id'))]))
      .execute();
  }
}
