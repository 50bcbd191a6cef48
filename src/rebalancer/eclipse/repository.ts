import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { pricedHoldingsByAccount } from '../../db/holdings.js';
import { type SearchTerm, firmColumn, likeTerm, textMatch } from '../../db/search.js';

export { type SearchTerm, searchTerm } from '../../db/search.js';

/** Ids per `in (...)` list: a batch read may name every account of a firm, far past the drivers' parameter limits. */
const CHUNK = 500;

async function inChunks<T>(ids: readonly number[], read: (chunk: number[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(...(await read(ids.slice(i, i + CHUNK))));
  return out;
}

/** Pending trade orders are the open ones; the others were executed or cancelled. */
export const PENDING_STATUS = 'Open';

/**
 * The queries of the source system's Eclipse reads that the rebalancer's other repositories do not
 * make: portfolios (registrations), securities, trade instances and orders, sleeves and sleeve
 * strategies, teams, set aside records of many accounts and the searches. Every query is scoped by firm_id.
 */
export class EclipseRepository {
  constructor(readonly db: Kysely<Database>) {}

  private portfolios(firmId: number, search: SearchTerm | undefined) {
    let query = this.db.selectFrom('registrations as r').innerJoin('clients as c', 'c.id', 'r.client_id').where(firmColumn(this.db, 'r.firm_id', search), '=', firmId);
    if (search) query = query.where(textMatch(this.db, 'r.id', 'registrations_search', [{ ref: 'r.name', name: 'name' }], search, true));
    return query;
  }

  async portfolioCount(firmId: number, search: SearchTerm | undefined): Promise<number> {
    return Number((await this.portfolios(firmId, search).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  }

  /** Registrations (the source system's portfolios) with their household, by id. */
  portfolioRows(firmId: number, search: SearchTerm | undefined, afterId: number, limit: number, skip: number) {
    return this.portfolios(firmId, search)
      .select(['r.id', 'r.name', 'r.type', 'r.client_id', 'c.name as household_name', 'r.is_sleeved', 'r.do_not_trade', 'r.created_at', 'r.created_by', 'r.edited_at', 'r.edited_by'])
      .where('r.id', '>', afterId)
      .orderBy('r.id')
      .limit(limit)
      .offset(skip)
      .execute();
  }

  portfolio(firmId: number, id: number) {
    return this.portfolios(firmId, undefined)
      .select(['r.id', 'r.name', 'r.type', 'r.client_id', 'c.name as household_name', 'r.is_sleeved', 'r.do_not_trade', 'r.created_at', 'r.created_by', 'r.edited_at', 'r.edited_by'])
      .where('r.id', '=', id)
      .executeTakeFirst();
  }

  /** Active accounts of the registrations with their cash, model and trading block. */
  portfolioAccounts(firmId: number, registrationIds: number[]) {
    return inChunks(registrationIds, (chunk) =>
      this.db
        .selectFrom('accounts')
        .select(['id', 'registration_id', 'cash_cents', 'model_id', 'is_trading_blocked'])
        .where('firm_id', '=', firmId)
        .where('registration_id', 'in', chunk)
        .where('is_active', '=', 1)
        .orderBy('id')
        .execute(),
    );
  }

  pricedHoldings(firmId: number, accountIds: number[]) {
    return inChunks(accountIds, (chunk) => pricedHoldingsByAccount(this.db, firmId, chunk));
  }

  async openOrderCount(firmId: number, accountIds: number[]): Promise<number> {
    const counts = await inChunks(accountIds, async (chunk) => [
      (await this.db.selectFrom('trades').select((eb) => eb.fn.countAll<number>().as('n')).where('firm_id', '=', firmId).where('status', '=', PENDING_STATUS).where('account_id', 'in', chunk).executeTakeFirstOrThrow()).n,
    ]);
    return counts.reduce<number>((sum, n) => sum + Number(n), 0);
  }

  /** Teams that may see the models (a model with no team is seen by every user). */
  modelTeams(firmId: number, modelIds: number[]) {
    if (modelIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('model_teams as mt')
      .innerJoin('teams as t', 't.id', 'mt.team_id')
      .select(['t.id', 't.name'])
      .distinct()
      .where('mt.firm_id', '=', firmId)
      .where('mt.model_id', 'in', modelIds)
      .orderBy('t.id')
      .execute();
  }

  accountExists(firmId: number, id: number) {
    return this.db.selectFrom('accounts').select(['id', 'registration_id']).where('firm_id', '=', firmId).where('id', '=', id).executeTakeFirst();
  }

  /** The firm's securities (products) matching a term in ticker, name or id; `top` of them by ticker. */
  securities(firmId: number, term: SearchTerm, options: { excludeCash: boolean; skip: number; top: number }) {
    let query = this.db
      .selectFrom('products')
      .select(['id', 'ticker', 'name', 'type', 'class', 'sub_class', 'category', 'price_micros', 'price_date', 'is_cash'])
      .where('firm_id', '=', firmId)
      .where((eb) => eb.or([...(term.id === null ? [] : [eb('id', '=', term.id)]), likeTerm('ticker', term), likeTerm('name', term)]));
    if (options.excludeCash) query = query.where('is_cash', '=', 0);
    return query.orderBy('id').limit(options.top).offset(options.skip).execute();
  }

  /** The firm's products of those ids (ticker and name). */
  productNames(firmId: number, ids: readonly number[]) {
    return inChunks([...ids], (chunk) => this.db.selectFrom('products').select(['id', 'ticker', 'name']).where('firm_id', '=', firmId).where('id', 'in', chunk).execute());
  }

  /** Trade instances created at or after `from` and before `before` (ISO timestamps), newest first. */
  /** A page of the instances created in [from, before), newest first, with how many there are (a date range: always counted). */
  async instances(firmId: number, from: string, before: string, page: { top: number; skip: number }) {
    const query = this.db.selectFrom('trade_instances').where('firm_id', '=', firmId).where('created_at', '>=', from).where('created_at', '<', before);
    const rows = await query
      .select(['id', 'routine', 'notes', 'status', 'created_at', 'created_by', 'cancelled_at', 'cancelled_by', 'trade_count'])
      .orderBy('id', 'desc')
      .limit(page.top)
      .offset(page.skip)
      .execute();
    const counted = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return { rows, total: Number(counted?.n ?? 0) };
  }

  /** Trade orders with their account, registration, product and instance, by id. */
  /** How many trade orders match the filter, for `$count=true` (reads every matching trade of the firm). */
  async countTrades(firmId: number, filter: { pending?: boolean; registrationId?: number }): Promise<number> {
    let query = this.db.selectFrom('trades as t').where('t.firm_id', '=', firmId);
    if (filter.pending === true) query = query.where('t.status', '=', PENDING_STATUS);
    if (filter.pending === false) query = query.where('t.status', '!=', PENDING_STATUS);
    if (filter.registrationId !== undefined) {
      const registrationId = filter.registrationId;
      query = query.where('t.account_id', 'in', (eb) => eb.selectFrom('accounts').select('id').where('firm_id', '=', firmId).where('registration_id', '=', registrationId));
    }
    const row = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  trades(firmId: number, filter: { pending?: boolean; registrationId?: number }, afterId: number, limit: number, skip: number) {
    let query = this.db
      .selectFrom('trades as t')
      .innerJoin('accounts as a', 'a.id', 't.account_id')
      .innerJoin('registrations as r', 'r.id', 'a.registration_id')
      .innerJoin('products as p', 'p.id', 't.product_id')
      .innerJoin('trade_instances as i', 'i.id', 't.trade_instance_id')
      .select([
        't.id', 't.trade_instance_id', 't.account_id', 'a.number as account_number', 'a.custodian', 'a.registration_id', 'r.name as registration_name', 'r.type as registration_type',
        't.product_id', 'p.ticker', 'p.name as product_name', 't.side', 't.trade_type', 't.shares_micros', 't.amount_cents', 't.price_micros', 't.reason', 't.status',
        't.created_at', 't.executed_at', 'i.notes as instance_notes', 'i.created_by',
      ])
      .where('t.firm_id', '=', firmId)
      .where('t.id', '>', afterId);
    if (filter.pending === true) query = query.where('t.status', '=', PENDING_STATUS);
    if (filter.pending === false) query = query.where('t.status', '!=', PENDING_STATUS);
    if (filter.registrationId !== undefined) query = query.where('a.registration_id', '=', filter.registrationId);
    return query.orderBy('t.id').limit(limit).offset(skip).execute();
  }

  /** A page of the blocks by ticker and side, with how many there are (one per security and side with open orders: always counted). */
  async blocks(firmId: number, page: { top: number; skip: number }) {
    const grouped = this.blockQuery(firmId);
    const rows = await grouped.orderBy('p.ticker').orderBy('t.side').limit(page.top).offset(page.skip).execute();
    const counted = await this.db.selectFrom(grouped.as('b')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return { rows, total: Number(counted?.n ?? 0) };
  }

  /** Pending (open) trade orders summed per security and side: the blocks a trading desk sends. */
  private blockQuery(firmId: number) {
    return this.db
      .selectFrom('trades as t')
      .innerJoin('products as p', 'p.id', 't.product_id')
      .select((eb) => [
        eb.fn.min('t.id').as('id'),
        't.product_id',
        'p.ticker',
        'p.name',
        'p.price_micros',
        't.side',
        eb.fn.sum<number>('t.shares_micros').as('shares_micros'),
        eb.fn.sum<number>('t.amount_cents').as('amount_cents'),
        eb.fn.countAll<number>().as('trade_count'),
        eb.fn.count<number>('t.account_id').distinct().as('account_count'),
        eb.fn.min('t.created_at').as('created_at'),
      ])
      .where('t.firm_id', '=', firmId)
      .where('t.status', '=', PENDING_STATUS)
      .groupBy(['t.product_id', 'p.ticker', 'p.name', 'p.price_micros', 't.side']);
  }

  /** Sleeve accounts (accounts of sleeved registrations that carry a sleeve type), by id. */
  sleeves(firmId: number, afterId: number, limit: number, skip: number) {
    return this.db
      .selectFrom('accounts as a')
      .innerJoin('registrations as r', 'r.id', 'a.registration_id')
      .leftJoin('models as m', 'm.id', 'a.model_id')
      .select(['a.id', 'a.name', 'a.number', 'a.registration_id', 'r.name as registration_name', 'a.sleeve_type', 'a.sleeve_target_pct', 'a.sleeve_tolerance_lower', 'a.sleeve_tolerance_upper', 'a.model_id', 'm.name as model_name', 'a.is_active'])
      .where('a.firm_id', '=', firmId)
      .where('a.sleeve_type', 'is not', null)
      .where('a.id', '>', afterId)
      .orderBy('a.id')
      .limit(limit)
      .offset(skip)
      .execute();
  }

  async sleeveCount(firmId: number): Promise<number> {
    const counted = await this.db.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).where('firm_id', '=', firmId).where('sleeve_type', 'is not', null).executeTakeFirst();
    return Number(counted?.n ?? 0);
  }

  /** Model aggregates with their models, and how many sleeved registrations name each as their strategy. */
  async strategies(firmId: number) {
    const aggs = await this.db.selectFrom('model_aggs').select(['id', 'name']).where('firm_id', '=', firmId).orderBy('id').execute();
    const members = await this.db
      .selectFrom('model_agg_models as am')
      .innerJoin('models as m', 'm.id', 'am.model_id')
      .select(['am.model_agg_id', 'am.model_id', 'm.name', 'am.weight_pct'])
      .where('am.firm_id', '=', firmId)
      .orderBy('am.model_id')
      .execute();
    const assigned = await this.db
      .selectFrom('sleeve_registrations')
      .select(['sleeve_strategy_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('firm_id', '=', firmId)
      .where('sleeve_strategy_id', 'is not', null)
      .groupBy('sleeve_strategy_id')
      .execute();
    return { aggs, members, assigned };
  }

  teams(firmId: number, id?: number) {
    let query = this.db.selectFrom('teams').select(['id', 'name']).where('firm_id', '=', firmId);
    if (id !== undefined) query = query.where('id', '=', id);
    return query.orderBy('id').execute();
  }

  plan(firmId: number, by: { id?: number; externalId?: string }) {
    let query = this.db.selectFrom('restricted_plans').select(['id', 'name', 'external_plan_id']).where('firm_id', '=', firmId);
    if (by.id !== undefined) query = query.where('id', '=', by.id);
    if (by.externalId !== undefined) query = query.where('external_plan_id', '=', by.externalId);
    return query.executeTakeFirst();
  }

  /** Which of the ids are accounts of the firm, with their numbers. */
  accountNumbers(firmId: number, ids: readonly number[]) {
    return inChunks(ids, (chunk) => this.db.selectFrom('accounts').select(['id', 'number']).where('firm_id', '=', firmId).where('id', 'in', chunk).execute());
  }

  /** Set aside cash records (not deleted) of the accounts, by account then id. */
  setAsides(firmId: number, accountIds: readonly number[]) {
    return inChunks(accountIds, (chunk) =>
      this.db.selectFrom('set_aside_cash').selectAll().where('firm_id', '=', firmId).where('account_id', 'in', chunk).where('is_deleted', '=', 0).orderBy('account_id').orderBy('id').execute(),
    );
  }

  /**
   * Accounts matching the term in number, name or id (and, with `includeClosed`, closed ones too),
   * by id, `limit` of them after `offset`. `nameOnly`: only the name is searched.
   */
  searchAccounts(firmId: number, term: SearchTerm, page: { limit: number; offset: number; includeClosed: boolean; nameOnly?: boolean }) {
    let query = this.db
      .selectFrom('accounts as a')
      .innerJoin('registrations as r', 'r.id', 'a.registration_id')
      .select(['a.id', 'a.name', 'a.number', 'a.custodian', 'a.registration_id', 'r.name as registration_name', 'r.type as registration_type', 'a.sleeve_type', 'a.model_id', 'a.cash_cents', 'a.is_active', 'a.created_at', 'a.created_by', 'a.edited_at', 'a.edited_by'])
      .where(firmColumn(this.db, 'a.firm_id', term), '=', firmId)
      .where(
        page.nameOnly
          ? textMatch(this.db, 'a.id', 'accounts_search', [{ ref: 'a.name', name: 'name' }], term, false)
          : textMatch(this.db, 'a.id', 'accounts_search', [{ ref: 'a.number', name: 'number' }, { ref: 'a.name', name: 'name' }], term, true),
      );
    if (!page.includeClosed) query = query.where('a.is_active', '=', 1);
    return query.orderBy('a.id').limit(page.limit).offset(page.offset).execute();
  }

  /**
   * GlobalSearchList in one statement: up to `limit` registrations, accounts and models matching
   * the term, each lookup limited on its own index before the three are put together (one round
   * trip instead of a statement per kind and per model). Models are those the caller may see: a
   * model with no team is seen by every user of the firm, one with teams by their members, and
   * every model by `seesEveryModel` (a platform administrator), as ModelService decides.
   * `ord` orders the models (the one whose id the term is first, then by name); the others go by id.
   */
  async globalSearch(firmId: number, term: SearchTerm, options: { limit: number; nameOnly: boolean; includeClosed: boolean; userId: number; seesEveryModel: boolean }) {
    const { limit, nameOnly } = options;
    const db = this.db;
    const id = nameOnly ? null : term.id;
    const registrations = db
      .selectFrom('registrations as r')
      .select(['r.id', 'r.name'])
      .where(firmColumn(db, 'r.firm_id', term), '=', firmId)
      .where(textMatch(db, 'r.id', 'registrations_search', [{ ref: 'r.name', name: 'name' }], term, !nameOnly))
      .orderBy('r.id')
      .limit(limit);
    let accounts = db
      .selectFrom('accounts as a')
      .select(['a.id', 'a.name', 'a.is_active', 'a.cash_cents'])
      .where(firmColumn(db, 'a.firm_id', term), '=', firmId)
      .where(
        nameOnly
          ? textMatch(db, 'a.id', 'accounts_search', [{ ref: 'a.name', name: 'name' }], term, false)
          : textMatch(db, 'a.id', 'accounts_search', [{ ref: 'a.number', name: 'number' }, { ref: 'a.name', name: 'name' }], term, true),
      );
    if (!options.includeClosed) accounts = accounts.where('a.is_active', '=', 1);
    let models = db
      .selectFrom('models as m')
      .select(['m.id', 'm.name', 'm.is_active'])
      .where('m.firm_id', '=', firmId)
      .where((eb) => eb.or([likeTerm('m.name', term), ...(id === null ? [] : [eb('m.id', '=', id)])]));
    if (!options.includeClosed) models = models.where('m.is_active', '=', 1);
    if (!options.seesEveryModel) {
      models = models.where((eb) =>
        eb.or([
          eb.not(eb.exists(eb.selectFrom('model_teams as mt').select('mt.team_id').where('mt.firm_id', '=', firmId).whereRef('mt.model_id', '=', 'm.id'))),
          eb.exists(
            eb
              .selectFrom('model_teams as mt')
              .innerJoin('team_users as tu', (join) => join.onRef('tu.team_id', '=', 'mt.team_id').onRef('tu.firm_id', '=', 'mt.firm_id'))
              .select('mt.team_id')
              .where('mt.firm_id', '=', firmId)
              .whereRef('mt.model_id', '=', 'm.id')
              .where('tu.user_id', '=', options.userId),
          ),
        ]),
      );
    }
    // The model whose id the term is comes first (a bare constant would be read as a column number by SQLite).
    const idFirst = id === null ? [] : [sql<number>`case when ${sql.ref('m.id')} = ${id} then 0 else 1 end`];
    const modelOrder = sql.join([...idFirst, sql.ref('m.name'), sql.ref('m.id')]);
    const limitedModels = models.orderBy(modelOrder).limit(limit);
    const noCash = sql<string | number | null>`cast(null as bigint)`;
    const rows = await db
      .selectFrom(registrations.as('p'))
      .select([sql<string>`'portfolio'`.as('kind'), 'p.id', 'p.name', sql<number>`1`.as('is_active'), noCash.as('cash_cents'), sql<string | number>`0`.as('ord')])
      .unionAll(db.selectFrom(accounts.orderBy('a.id').limit(limit).as('a')).select([sql<string>`'account'`.as('kind'), 'a.id', 'a.name', 'a.is_active', sql<string | number | null>`${sql.ref('a.cash_cents')}`.as('cash_cents'), sql<string | number>`0`.as('ord')]))
      .unionAll(
        db
          .selectFrom(limitedModels.as('m'))
          .select([sql<string>`'model'`.as('kind'), 'm.id', 'm.name', 'm.is_active', noCash.as('cash_cents'), sql<string | number>`row_number() over (order by ${modelOrder})`.as('ord')]),
      )
      .execute();
    const of = (kind: string) => rows.filter((r) => r.kind === kind);
    const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
    return {
      portfolios: of('portfolio').sort(byId),
      accounts: of('account').sort(byId),
      models: of('model').sort((a, b) => Number(a.ord) - Number(b.ord)),
    };
  }
}
