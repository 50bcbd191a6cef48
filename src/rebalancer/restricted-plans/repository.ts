import { type Insertable, type Kysely, type Transaction, type Updateable, sql } from 'kysely';
import type { Database, RestrictedPlanSecurityTable, RestrictedPlanTable } from '../../db/schema.js';
import { locksRows } from '../../db/dialect.js';

/** Every query is scoped by firm_id: another firm's plan is simply not found. */
export class RestrictedPlanRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (repository: RestrictedPlanRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx: Transaction<Database>) => work(new RestrictedPlanRepository(trx)));
  }

  plans(firmId: number, search?: string) {
    return this.matching(firmId, search).selectAll().orderBy('name').orderBy('id').execute();
  }

  /** A page of the plans by name, with how many match (a firm keeps tens of plans: always counted). */
  async plansPage(firmId: number, search: string | undefined, page: { top: number; skip: number }) {
    const rows = await this.matching(firmId, search).selectAll().orderBy('name').orderBy('id').limit(page.top).offset(page.skip).execute();
    const counted = await this.matching(firmId, search).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return { rows, total: Number(counted?.n ?? 0) };
  }

  private matching(firmId: number, search?: string) {
    let query = this.db.selectFrom('restricted_plans').where('firm_id', '=', firmId);
    if (search !== undefined && search !== '') {
      // lower() on both sides: LIKE is case-insensitive on SQLite only. \ escapes the wildcards.
      const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where(sql<boolean>`lower(name) like ${pattern} escape '\\'`);
    }
    return query;
  }

  /** `lock`: inside a write, so that concurrent edits of one plan run one after the other. */
  plan(firmId: number, by: { id: number } | { externalPlanId: string }, lock = false) {
    let query = this.db.selectFrom('restricted_plans').selectAll().where('firm_id', '=', firmId);
    query = 'id' in by ? query.where('id', '=', by.id) : query.where('external_plan_id', '=', by.externalPlanId);
    return query.$if(lock && locksRows(this.db), (q) => q.forUpdate()).executeTakeFirst();
  }

  async accountCounts(firmId: number, planIds: number[]): Promise<Map<number, number>> {
    if (planIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('accounts')
      .select(['restricted_plan_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('firm_id', '=', firmId)
      .where('restricted_plan_id', 'in', planIds)
      .groupBy('restricted_plan_id')
      .execute();
    return new Map(rows.map((r) => [r.restricted_plan_id as number, Number(r.n)]));
  }

  securities(firmId: number, planId: number) {
    return this.db
      .selectFrom('restricted_plan_securities as s')
      .innerJoin('products as p', 'p.id', 's.product_id')
      .select([
        's.id',
        's.product_id',
        's.do_not_buy_group_equivalency',
        's.buy_priority_id',
        's.sell_priority_id',
        's.created_at',
        's.created_by',
        's.edited_at',
        's.edited_by',
        'p.name as product_name',
        'p.ticker',
        'p.type',
        'p.class',
        'p.sub_class',
        'p.category',
      ])
      .where('s.firm_id', '=', firmId)
      .where('s.plan_id', '=', planId)
      .orderBy('p.ticker')
      .execute();
  }

  /** Plans of the firm (other than `exceptId`) holding the name key or the external id. */
  holders(firmId: number, nameKey: string, externalPlanId: string | null, exceptId: number | null) {
    let query = this.db
      .selectFrom('restricted_plans')
      .select(['id', 'name_key', 'external_plan_id'])
      .where('firm_id', '=', firmId)
      .where((eb) => (externalPlanId === null ? eb('name_key', '=', nameKey) : eb.or([eb('name_key', '=', nameKey), eb('external_plan_id', '=', externalPlanId)])));
    if (exceptId !== null) query = query.where('id', '<>', exceptId);
    return query.execute();
  }

  async existingProducts(firmId: number, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.selectFrom('products').select('id').where('firm_id', '=', firmId).where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }

  async insertPlan(row: Insertable<RestrictedPlanTable>): Promise<number> {
    return (await this.db.insertInto('restricted_plans').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  async updatePlan(firmId: number, id: number, row: Updateable<RestrictedPlanTable>) {
    await this.db.updateTable('restricted_plans').set(row).where('firm_id', '=', firmId).where('id', '=', id).execute();
  }

  async deletePlan(firmId: number, id: number) {
    await this.db.deleteFrom('restricted_plan_securities').where('firm_id', '=', firmId).where('plan_id', '=', id).execute();
    await this.db.deleteFrom('restricted_plans').where('firm_id', '=', firmId).where('id', '=', id).execute();
  }

  async planProducts(firmId: number, planId: number): Promise<Set<number>> {
    const rows = await this.db.selectFrom('restricted_plan_securities').select('product_id').where('firm_id', '=', firmId).where('plan_id', '=', planId).execute();
    return new Set(rows.map((r) => r.product_id));
  }

  async insertSecurities(rows: Insertable<RestrictedPlanSecurityTable>[]) {
    // 500 rows × 10 columns stays under every driver's parameter limit.
    for (let i = 0; i < rows.length; i += 500) await this.db.insertInto('restricted_plan_securities').values(rows.slice(i, i + 500)).execute();
  }

  async updateSecurity(firmId: number, planId: number, productId: number, row: Updateable<RestrictedPlanSecurityTable>) {
    await this.db
      .updateTable('restricted_plan_securities')
      .set(row)
      .where('firm_id', '=', firmId)
      .where('plan_id', '=', planId)
      .where('product_id', '=', productId)
      .execute();
  }

  async deleteSecurities(firmId: number, planId: number, productIds: number[]) {
    if (productIds.length === 0) return;
    await this.db
      .deleteFrom('restricted_plan_securities')
      .where('firm_id', '=', firmId)
      .where('plan_id', '=', planId)
      .where('product_id', 'in', productIds)
      .execute();
  }
}
