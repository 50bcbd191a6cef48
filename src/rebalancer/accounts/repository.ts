import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { pricedHoldingsByAccount } from '../../db/holdings.js';
import { readByIds } from '../../db/id-chunks.js';
import { type SearchTerm, accountOrRegistrationMatch, firmColumn, searchTerm } from '../../db/search.js';
import { loadSetAsideCash } from '../../set-aside-cash/repository.js';

export interface AccountFilter {
  search?: string;
  modelId?: number;
  /** Accounts of one registration (the source system's portfolio). */
  registrationId?: number;
  restrictedPlanId?: number;
  top?: number;
  skip: number;
}

/**
 * The rebalancing application's view of the book's accounts: an account with its registration
 * (the application's portfolio), its model and its restricted plan. Every query is scoped by firm_id.
 */
export class RebalancerAccountRepository {
  constructor(readonly db: Kysely<Database>) {}

  /**
   * The firm's accounts with their registration (a search matches its name). The model and the
   * plan are joined only to read a page (`columns`): each account has at most one of each, so
   * counting needs neither, and a count over a large firm costs a third more with the joins.
   */
  private base(firmId: number, term?: SearchTerm) {
    return this.db.selectFrom('accounts as a').innerJoin('registrations as r', 'r.id', 'a.registration_id').where(firmColumn(this.db, 'a.firm_id', term), '=', firmId);
  }

  /** `search` is matched as the rebalancer's searches match (db/search.ts), on the registration's name too. */
  private filtered(firmId: number, filter: AccountFilter) {
    const term = filter.search?.trim() ? searchTerm(filter.search) : undefined;
    let query = this.base(firmId, term).where('a.is_active', '=', 1);
    if (filter.modelId !== undefined) query = query.where('a.model_id', '=', filter.modelId);
    if (filter.registrationId !== undefined) query = query.where('a.registration_id', '=', filter.registrationId);
    if (filter.restrictedPlanId !== undefined) query = query.where('a.restricted_plan_id', '=', filter.restrictedPlanId);
    if (term) query = query.where(accountOrRegistrationMatch(this.db, term));
    return query;
  }

  /** Active accounts matching the filter: the total before paging (X-Total-Count). */
  async count(firmId: number, filter: AccountFilter): Promise<number> {
    const total = await this.filtered(firmId, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(total.n);
  }

  /** Up to `limit` active accounts matching the filter after `afterId`, by id, skipping `skip` of them first. */
  rows(firmId: number, filter: AccountFilter, afterId: number, limit: number, skip: number) {
    return this.columns(this.filtered(firmId, filter)).where('a.id', '>', afterId).orderBy('a.id').limit(limit).offset(skip).execute();
  }

  /** Any account of the firm, active or not. */
  one(firmId: number, id: number) {
    return this.columns(this.base(firmId).where('a.id', '=', id)).executeTakeFirst();
  }

  private columns(query: ReturnType<RebalancerAccountRepository['base']>) {
    return query
      .leftJoin('models as m', 'm.id', 'a.model_id')
      .leftJoin('restricted_plans as rp', 'rp.id', 'a.restricted_plan_id')
      .select([
        'a.id',
        'a.name',
        'a.number',
        'a.custodian',
        'a.cash_cents',
        'a.is_active',
        'a.is_trading_blocked',
        'a.model_id',
        'a.restricted_plan_id',
        'a.sleeve_type',
        'a.sleeve_target_pct',
        'a.sleeve_tolerance_lower',
        'a.sleeve_tolerance_upper',
        'a.created_at',
        'a.created_by',
        'a.edited_at',
        'a.edited_by',
        'a.registration_id',
        'r.name as registration_name',
        'r.type as registration_type',
        'r.is_sleeved',
        'm.name as model_name',
        'm.cash_target_pct',
        'rp.name as plan_name',
      ]);
  }

  /** Each account's priced holdings as one row of (shares, price) pairs (db/holdings.ts). */
  pricedHoldings(firmId: number, accountIds: number[]) {
    return readByIds(this.db, accountIds, (chunk) => pricedHoldingsByAccount(this.db, firmId, chunk));
  }

  setAsideCash(firmId: number, accountIds: number[], asOfDate: string) {
    return loadSetAsideCash(this.db, firmId, accountIds, asOfDate);
  }

  /** The account's positions with their products, by ticker. */
  positions(firmId: number, accountId: number) {
    return this.db
      .selectFrom('positions as p')
      .innerJoin('products as pr', 'pr.id', 'p.product_id')
      .select(['p.id', 'p.product_id', 'p.shares_micros', 'pr.ticker', 'pr.name', 'pr.price_micros', 'pr.is_cash', 'pr.class', 'pr.sub_class', 'pr.category'])
      .where('p.firm_id', '=', firmId)
      .where('p.account_id', '=', accountId)
      .orderBy('pr.ticker')
      .execute();
  }

  /** Positions of the accounts in the given products, with the products' latest prices. */
  positionsOf(firmId: number, accountIds: number[], productIds: number[]) {
    if (productIds.length === 0) return Promise.resolve([]);
    return readByIds(this.db, accountIds, (chunk) => this.db
      .selectFrom('positions as p')
      .innerJoin('products as pr', 'pr.id', 'p.product_id')
      .select(['p.account_id', 'p.product_id', 'p.shares_micros', 'pr.price_micros'])
      .where('p.firm_id', '=', firmId)
      .where('p.account_id', 'in', chunk)
      .where('p.product_id', 'in', productIds)
      .execute());
  }

  /** Open trade orders of the accounts: what the application counts as pending. */
  openOrders(firmId: number, accountIds: number[]) {
    return readByIds(this.db, accountIds, (chunk) =>
      this.db
        .selectFrom('trades')
        .select(['account_id', 'product_id', 'side', 'shares_micros', 'amount_cents'])
        .where('firm_id', '=', firmId)
        .where('status', '=', 'Open')
        .where('account_id', 'in', chunk)
        .execute(),
    );
  }

  /** The model's targets with their equivalents (holding an equivalent counts toward the target). */
  async modelTargets(firmId: number, modelId: number) {
    const targets = await this.db
      .selectFrom('model_allocations')
      .select(['id', 'product_id', 'target_pct', 'lower_pct', 'upper_pct'])
      .where('firm_id', '=', firmId)
      .where('model_id', '=', modelId)
      .execute();
    const ids = targets.map((t) => t.id);
    const equivalents = ids.length === 0 ? [] : await this.db.selectFrom('model_equivalents').select(['model_allocation_id', 'product_id']).where('firm_id', '=', firmId).where('model_allocation_id', 'in', ids).execute();
    return targets.map((t) => ({
      productId: t.product_id,
      target: Number(t.target_pct),
      lower: Number(t.lower_pct),
      upper: Number(t.upper_pct),
      equivalents: equivalents.filter((e) => e.model_allocation_id === t.id).map((e) => e.product_id),
    }));
  }

  async modelExists(firmId: number, modelId: number): Promise<boolean> {
    return (await this.db.selectFrom('models').select('id').where('firm_id', '=', firmId).where('id', '=', modelId).executeTakeFirst()) !== undefined;
  }

  /** Latest prices of the given products. */
  async prices(firmId: number, productIds: number[]): Promise<Map<number, number | null>> {
    if (productIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('products').select(['id', 'price_micros']).where('firm_id', '=', firmId).where('id', 'in', productIds).execute();
    return new Map(rows.map((r) => [r.id, r.price_micros === null ? null : Number(r.price_micros)]));
  }
}
