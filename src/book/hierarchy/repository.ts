import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { pricedHoldingsByAccount } from '../../db/holdings.js';
import { type PageRequest, withTotal } from '../../db/paging.js';
import type { Database } from '../../db/schema.js';

/** `%term%` for LIKE, with the term's own wildcards escaped so `50%` finds "50%" and not everything. */
function containing(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Case-insensitive "contains" on both dialects (PostgreSQL's LIKE is case-sensitive). */
const contains = (column: string, term: string) => sql<boolean>`lower(${sql.ref(column)}) like ${containing(term)} escape '\\'`;

export type Page = PageRequest;

/** How many rows a list's filter matches, for `$count=true` (the same query, unordered, unpaged). */
async function countOf<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  // The select replaces the row's type with the count's; Kysely's clearSelect() loses the row type.
  const row = (await query.clearSelect().select(sql<number>`count(*)`.as('n')).executeTakeFirst()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}

export interface TransactionFilter {
  accountId?: number;
  clientId?: number;
  registrationId?: number;
  startDate?: string;
  endDate?: string;
  types?: string[];
}

/**
 * The reads the source system's clients make of the portfolio hierarchy (households, registrations,
 * accounts, assets, transactions). Every query is bounded by the firm and pages by id.
 */
export class PortfolioHierarchyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private clientsWithRepresentative() {
    return this.db
      .selectFrom('clients as c')
      .innerJoin('representatives as r', 'r.id', 'c.representative_id')
      .select(['c.id', 'c.name', 'c.notes', 'c.representative_id', 'r.name as representative_name', 'c.created_at', 'c.created_by', 'c.edited_at', 'c.edited_by']);
  }

  async searchClients(firmId: number, term: string, page: Page) {
    const query = this.clientsWithRepresentative().where('c.firm_id', '=', firmId).where(contains('c.name', term));
    return withTotal(await query.orderBy('c.id').limit(page.top).offset(page.skip).execute(), page, () => countOf(query));
  }

  client(firmId: number, id: number) {
    return this.clientsWithRepresentative().where('c.firm_id', '=', firmId).where('c.id', '=', id).executeTakeFirst();
  }

  private registrationsWithClient() {
    return this.db
      .selectFrom('registrations as g')
      .innerJoin('clients as c', 'c.id', 'g.client_id')
      .select(['g.id', 'g.name', 'g.type', 'g.client_id', 'c.name as client_name', 'g.is_sleeved', 'g.do_not_trade', 'g.created_at', 'g.edited_at']);
  }

  async searchRegistrations(firmId: number, term: string, page: Page) {
    const query = this.registrationsWithClient().where('g.firm_id', '=', firmId).where(contains('g.name', term));
    return withTotal(await query.orderBy('g.id').limit(page.top).offset(page.skip).execute(), page, () => countOf(query));
  }

  registration(firmId: number, id: number) {
    return this.registrationsWithClient().where('g.firm_id', '=', firmId).where('g.id', '=', id).executeTakeFirst();
  }

  registrationsOfClient(firmId: number, clientId: number) {
    return this.registrationsWithClient().where('g.firm_id', '=', firmId).where('g.client_id', '=', clientId).orderBy('g.id').execute();
  }

  private accountsWithOwners() {
    return this.db
      .selectFrom('accounts as a')
      .innerJoin('registrations as g', 'g.id', 'a.registration_id')
      .innerJoin('clients as c', 'c.id', 'g.client_id')
      .leftJoin('models as m', 'm.id', 'a.model_id')
      .select([
        'a.id',
        'a.number',
        'a.name',
        'a.custodian',
        'a.registration_id',
        'g.name as registration_name',
        'g.type as registration_type',
        'g.client_id',
        'c.name as client_name',
        'a.model_id',
        'm.name as model_name',
        'a.cash_cents',
        'a.is_active',
        'a.is_trading_blocked',
        'a.created_at',
        'a.edited_at',
      ]);
  }

  async searchAccounts(firmId: number, term: string, activeOnly: boolean, page: Page) {
    let query = this.accountsWithOwners()
      .where('a.firm_id', '=', firmId)
      .where((eb) => eb.or([contains('a.name', term), contains('a.number', term)]));
    if (activeOnly) query = query.where('a.is_active', '=', 1);
    return withTotal(await query.orderBy('a.id').limit(page.top).offset(page.skip).execute(), page, () => countOf(query));
  }

  account(firmId: number, id: number) {
    return this.accountsWithOwners().where('a.firm_id', '=', firmId).where('a.id', '=', id).executeTakeFirst();
  }

  accountsOfClient(firmId: number, clientId: number) {
    return this.accountsWithOwners().where('a.firm_id', '=', firmId).where('g.client_id', '=', clientId).orderBy('a.id').execute();
  }

  private positionsWithProducts() {
    return this.db
      .selectFrom('positions as p')
      .innerJoin('products as pr', 'pr.id', 'p.product_id')
      .select([
        'p.id',
        'p.account_id',
        'p.product_id',
        'p.shares_micros',
        'p.cost_cents',
        'pr.ticker',
        'pr.name as product_name',
        'pr.type as product_type',
        'pr.price_micros',
        'pr.price_date',
        'pr.is_cash',
      ]);
  }

  /** The positions of a set of accounts, for asset lists and the portfolio tree's values. */
  /** Each account's priced holdings, one row an account (shared/holding-values.ts values them). */
  pricedHoldingsOf(firmId: number, accountIds: number[]) {
    return pricedHoldingsByAccount(this.db, firmId, accountIds);
  }

  positionsOfAccounts(firmId: number, accountIds: number[]) {
    if (accountIds.length === 0) return Promise.resolve([]);
    return this.positionsWithProducts()
      .where('p.firm_id', '=', firmId)
      .where('p.account_id', 'in', accountIds)
      .orderBy('p.account_id')
      .orderBy('p.id')
      .execute();
  }

  /**
   * Holdings of the products whose ticker or name contains `term`. The products are matched first
   * (a firm has hundreds or thousands, its positions millions): a term no product matches reads no
   * position, and the positions are walked in id order testing only their product id against the
   * matched set, not a LIKE a row, which on a large firm costs a scan of every position for each
   * keystroke of a search box. The set stays a subquery,
   * so a firm of tens of thousands of products never passes them as parameters.
   */
  async searchAssets(firmId: number, term: string, page: Page) {
    const matching = this.db
      .selectFrom('products')
      .select('id')
      .where('firm_id', '=', firmId)
      .where((eb) => eb.or([contains('ticker', term), contains('name', term)]));
    if (!(await matching.limit(1).executeTakeFirst())) return withTotal([], page, () => Promise.resolve(0));
    const query = this.positionsWithProducts().where('p.firm_id', '=', firmId).where('p.product_id', 'in', matching);
    return withTotal(await query.orderBy('p.id').limit(page.top).offset(page.skip).execute(), page, () => countOf(query));
  }

  async transactions(firmId: number, filter: TransactionFilter, page: Page) {
    let query = this.db
      .selectFrom('account_transactions as t')
      .innerJoin('accounts as a', 'a.id', 't.account_id')
      .innerJoin('registrations as g', 'g.id', 'a.registration_id')
      .select(['t.id', 't.account_id', 'a.number as account_number', 'a.registration_id', 'g.client_id', 't.type', 't.amount_cents', 't.trade_date', 't.description', 't.created_at', 't.created_by'])
      .where('t.firm_id', '=', firmId);
    if (filter.accountId !== undefined) query = query.where('t.account_id', '=', filter.accountId);
    if (filter.registrationId !== undefined) query = query.where('a.registration_id', '=', filter.registrationId);
    if (filter.clientId !== undefined) query = query.where('g.client_id', '=', filter.clientId);
    if (filter.startDate !== undefined) query = query.where('t.trade_date', '>=', filter.startDate);
    if (filter.endDate !== undefined) query = query.where('t.trade_date', '<=', filter.endDate);
    if (filter.types !== undefined) query = query.where('t.type', 'in', filter.types.length > 0 ? filter.types : ['']);
    return withTotal(await query.orderBy('t.trade_date', 'desc').orderBy('t.id', 'desc').limit(page.top).offset(page.skip).execute(), page, () => countOf(query));
  }

}
