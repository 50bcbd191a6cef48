// Reads of performance history and the entities it is measured for; writes of the daily valuation.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { type BulkColumn, bulkWrite, type BulkWrite } from '../db/bulk-insert.js';
import { isPostgres } from '../db/dialect.js';
import type { HistoryDay } from '../engine/performance/returns.js';
import { unpackHistory } from './packed-history.js';
import { readPrepared } from '../db/prepared.js';

export type PerformanceEntity = 'Accounts' | 'Registrations' | 'Clients';

export interface MemberAccount {
  id: number;
  number: string;
  name: string;
  modelId: number | null;
}

export interface ModelTargets {
  name: string;
  lines: { productId: number; weight: number }[];
}

// Entities read per statement. Not the bind limit (db/id-chunks.ts): each account brings years of
// daily rows, so this bounds the history one read holds in memory (500 entities' accounts × ~780
// days for three years; the batch asks for 100 entities at a time).
const CHUNK = 500;

/** Day number of a stored YYYY-MM-DD date: written checked, so read without the checks of dayOf. */
const storedDay = (text: string): number => Date.parse(text) / 86_400_000;

export interface MemberHistory extends MemberAccount {
  history: HistoryDay[];
}

/**
 * The members of `ids` with each one's history packed into one text: `date,value,flow,fee,income`
 * per date in date order (value empty when none), `;` between dates. The database formats a date
 * as stored; turning it into a day number here costs less than in the query.
 * One row an account instead of one a date: a request's history is one statement and one value
 * for the driver to parse (docs/decisions/performance-history-read.md).
 */
export function membersWithHistoriesQuery(db: Kysely<Database>, firmId: number, entity: PerformanceEntity, ids: readonly number[], untilDate?: string) {
  const item = sql`concat_ws(',', v.value_date, coalesce(cast(v.market_value_cents as text), ''), v.net_flow_cents, v.fees_cents, v.income_cents)`;
  const packed = isPostgres(db) ? sql`string_agg(${item}, ';' order by v.value_date)` : sql`group_concat(${item}, ';' order by v.value_date)`;
  const until = untilDate === undefined ? sql`` : sql` and v.value_date <= ${untilDate}`;
  const history = sql<string | null>`(select ${packed} from account_values as v where v.firm_id = accounts.firm_id and v.account_id = accounts.id${until})`;
  let query = db
    .selectFrom('accounts')
    .innerJoin('registrations', 'registrations.id', 'accounts.registration_id')
    .select(['accounts.id', 'accounts.number', 'accounts.name', 'accounts.model_id', 'accounts.registration_id', 'registrations.client_id', history.as('history')])
    .where('accounts.firm_id', '=', firmId);
  if (entity === 'Accounts') query = query.where('accounts.id', 'in', [...ids]);
  else if (entity === 'Registrations') query = query.where('accounts.registration_id', 'in', [...ids]);
  else query = query.where('registrations.client_id', 'in', [...ids]);
  return query.orderBy('accounts.id');
}

export class PerformanceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The entity's name, or undefined when it is not one of the firm's. */
  async nameOf(firmId: number, entity: PerformanceEntity, id: number): Promise<string | undefined> {
    const table = entity === 'Accounts' ? 'accounts' : entity === 'Registrations' ? 'registrations' : 'clients';
    const row = await this.db.selectFrom(table).select('name').where('firm_id', '=', firmId).where('id', '=', id).executeTakeFirst();
    return row?.name;
  }

  async firmName(firmId: number): Promise<string> {
    return (await this.db.selectFrom('firms').select('name').where('id', '=', firmId).executeTakeFirst())?.name ?? '';
  }

  /** Ids of the firm's entities of a kind, in id order, a page at a time. */
  async idsPage(firmId: number, entity: PerformanceEntity, top: number, skip: number): Promise<number[]> {
    const table = entity === 'Accounts' ? 'accounts' : entity === 'Registrations' ? 'registrations' : 'clients';
    const rows = await this.db.selectFrom(table).select('id').where('firm_id', '=', firmId).orderBy('id').limit(top).offset(skip).execute();
    return rows.map((r) => r.id);
  }

  /** The names of the firm's entities among `ids` (an id not of the firm is absent). */
  async namesOf(firmId: number, entity: PerformanceEntity, ids: readonly number[]): Promise<Map<number, string>> {
    const table = entity === 'Accounts' ? 'accounts' : entity === 'Registrations' ? 'registrations' : 'clients';
    const out = new Map<number, string>();
    for (let i = 0; i < ids.length; i += CHUNK) {
      for (const r of await this.db.selectFrom(table).select(['id', 'name']).where('firm_id', '=', firmId).where('id', 'in', ids.slice(i, i + CHUNK)).execute()) out.set(r.id, r.name);
    }
    return out;
  }

  /**
   * The accounts each entity is made of (an account: itself), in account id order, each with its
   * history up to `untilDate` in date order (money in cents): one statement per CHUNK entities.
   */
  async membersWithHistories(firmId: number, entity: PerformanceEntity, ids: readonly number[], untilDate?: string): Promise<Map<number, MemberHistory[]>> {
    const out = new Map<number, MemberHistory[]>(ids.map((id) => [id, []]));
    for (let i = 0; i < ids.length; i += CHUNK) {
      const query = membersWithHistoriesQuery(this.db, firmId, entity, ids.slice(i, i + CHUNK), untilDate);
      // One entity's read (every Performance request) has one text per kind of entity and end
      // date option, so it is prepared: on PostgreSQL planning it cost a third of running it.
      for (const a of ids.length === 1 ? await readPrepared(this.db, query) : await query.execute()) {
        const key = entity === 'Accounts' ? a.id : entity === 'Registrations' ? a.registration_id : a.client_id;
        out.get(key)?.push({ id: a.id, number: a.number, name: a.name, modelId: a.model_id, history: unpackHistory(a.history) });
      }
    }
    return out;
  }

  async modelTargets(firmId: number, modelId: number): Promise<ModelTargets | undefined> {
    const model = await this.db.selectFrom('models').select('name').where('firm_id', '=', firmId).where('id', '=', modelId).executeTakeFirst();
    if (!model) return undefined;
    const lines = await this.db
      .selectFrom('model_allocations')
      .innerJoin('products', 'products.id', 'model_allocations.product_id')
      .select(['model_allocations.product_id', 'model_allocations.target_pct', 'products.is_cash'])
      .where('model_allocations.firm_id', '=', firmId)
      .where('model_allocations.model_id', '=', modelId)
      .orderBy('model_allocations.product_id')
      .execute();
    // A cash product among the targets returns 0 %, like the model's cash line.
    return { name: model.name, lines: lines.filter((l) => l.is_cash !== 1).map((l) => ({ productId: l.product_id, weight: l.target_pct / 100 })) };
  }

  /** Price histories (micros) of products up to a date, in date order. */
  async priceHistories(firmId: number, productIds: readonly number[], untilDate: string): Promise<Map<number, { day: number; price: number }[]>> {
    const out = new Map<number, { day: number; price: number }[]>(productIds.map((id) => [id, []]));
    if (productIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('product_prices')
      .select(['product_id', 'price_date', 'price_micros'])
      .where('firm_id', '=', firmId)
      .where('product_id', 'in', [...productIds])
      .where('price_date', '<=', untilDate)
      .orderBy('product_id')
      .orderBy('price_date')
      .execute();
    for (const r of rows) out.get(r.product_id)?.push({ day: storedDay(r.price_date), price: r.price_micros });
    return out;
  }

  // --- Daily valuation -------------------------------------------------------------------------

  async firms(code?: string): Promise<{ id: number; code: string }[]> {
    let query = this.db.selectFrom('firms').select(['id', 'code']).orderBy('id');
    if (code) query = query.where('code', '=', code);
    return query.execute();
  }

  /**
   * Claims a firm's date for this node: true when this call inserted the claim. Another node's
   * claim (the row exists) answers false, so of several nodes one values the date.
   */
  async claimRun(firmId: number, date: string, node: string, at: string, staleBefore: string): Promise<boolean> {
    const result = await this.db
      .insertInto('valuation_runs')
      .values({ firm_id: firmId, value_date: date, claimed_by: node, claimed_at: at, finished_at: null })
      .onConflict((oc) => oc.columns(['firm_id', 'value_date']).doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0n) > 0) return true;
    // A claim whose node died before finishing is taken over once it is old enough.
    const taken = await this.db
      .updateTable('valuation_runs')
      .set({ claimed_by: node, claimed_at: at })
      .where('firm_id', '=', firmId)
      .where('value_date', '=', date)
      .where('finished_at', 'is', null)
      .where('claimed_at', '<', staleBefore)
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) > 0;
  }

  async finishRun(firmId: number, date: string, at: string): Promise<void> {
    await this.db.updateTable('valuation_runs').set({ finished_at: at }).where('firm_id', '=', firmId).where('value_date', '=', date).execute();
  }

  /**
   * Each account's market value at the close of `date` in cents: positions at the latest price on
   * or before the date (the product's own price when its history has none), plus cash. One
   * statement for the whole firm; accounts without positions are valued at their cash.
   */
  async accountValues(firmId: number, date: string): Promise<{ accountId: number; cents: number }[]> {
    const { rows } = await sql<{ account_id: number; holdings: number | string | null; cash_cents: number | string }>`
      select a.id as account_id, a.cash_cents, (
        select sum((p.shares_micros / 1000000.0) * (coalesce(
          (select pp.price_micros from product_prices pp where pp.product_id = p.product_id and pp.price_date <= ${date} order by pp.price_date desc limit 1),
          pr.price_micros, 0) / 10000.0))
        from positions p join products pr on pr.id = p.product_id
        where p.account_id = a.id
      ) as holdings
      from accounts a
      where a.firm_id = ${firmId} and a.is_active = 1
      order by a.id`.execute(this.db);
    return rows.map((r) => ({ accountId: Number(r.account_id), cents: Math.round(Number(r.holdings ?? 0)) + Number(r.cash_cents) }));
  }

  /** The day's external flows, fees and income per account, from its transactions (cents). */
  async dayTransactions(firmId: number, date: string): Promise<Map<number, { flow: number; fee: number; income: number }>> {
    const rows = await this.db
      .selectFrom('account_transactions')
      .select(['account_id', 'type', 'amount_cents'])
      .where('firm_id', '=', firmId)
      .where('trade_date', '=', date)
      .execute();
    const out = new Map<number, { flow: number; fee: number; income: number }>();
    for (const r of rows) {
      const kind = TRANSACTION_KINDS[r.type];
      if (!kind) continue;
      const slot = out.get(r.account_id) ?? { flow: 0, fee: 0, income: 0 };
      const amount = Math.abs(r.amount_cents);
      if (kind === 'in') slot.flow += amount;
      else if (kind === 'out') slot.flow -= amount;
      else if (kind === 'fee') slot.fee += amount;
      else slot.income += amount;
      out.set(r.account_id, slot);
    }
    return out;
  }

  /** Replaces the firm's rows of one date: running it again for the date changes nothing. */
  async replaceDay(firmId: number, date: string, rows: { accountId: number; cents: number; flow: number; fee: number; income: number }[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('account_values').where('firm_id', '=', firmId).where('value_date', '=', date).execute();
      // One statement carries 20,000 rows as a value per column (src/db/bulk-insert.ts).
      for (let i = 0; i < rows.length; i += 20_000) {
        await bulkWrite(trx, accountValuesWrite(firmId, date, rows.slice(i, i + 20_000)));
      }
    });
  }
}

const VALUE_COLUMNS: BulkColumn<'account_values'>[] = [['account_id', 'int4'], ['market_value_cents', 'int8'], ['net_flow_cents', 'int8'], ['fees_cents', 'int8'], ['income_cents', 'int8']];

/** One date's account values as a bulk write, not yet run (its SQL is checked in: `repository.sql.test.ts`). */
export function accountValuesWrite(firmId: number, date: string, rows: { accountId: number; cents: number; flow: number; fee: number; income: number }[]): BulkWrite<'account_values'> {
  return {
    table: 'account_values',
    columns: VALUE_COLUMNS,
    constants: [['firm_id', 'int4', firmId], ['value_date', 'text', date]],
    rows: rows.map((r) => [r.accountId, r.cents, r.flow, r.fee, r.income]),
  };
}

/** Transaction types the valuation reads; trades and every other type are internal to the account. */
const TRANSACTION_KINDS: Record<string, 'in' | 'out' | 'fee' | 'income'> = {
  Contribution: 'in',
  Distribution: 'out',
  MergeOut: 'out',
  Fee: 'fee',
  Dividend: 'income',
  Interest: 'income',
};
