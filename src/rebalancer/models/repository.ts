import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { Database, ModelTable } from '../../db/schema.js';
import { locksRows } from '../../db/dialect.js';

export class ModelRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (repository: ModelRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx: Transaction<Database>) => work(new ModelRepository(trx)));
  }

  models(firmId: number, ids?: number[]) {
    let query = this.db.selectFrom('models').selectAll().where('firm_id', '=', firmId);
    if (ids) {
      if (ids.length === 0) return Promise.resolve([]);
      query = query.where('id', 'in', ids);
    }
    return query.orderBy('name').orderBy('id').execute();
  }

  /** `lock`: inside a write, so that concurrent rewrites of one model's allocation run one after the other. */
  model(firmId: number, id: number, lock = false) {
    return this.db
      .selectFrom('models')
      .selectAll()
      .where('firm_id', '=', firmId)
      .where('id', '=', id)
      .$if(lock && locksRows(this.db), (q) => q.forUpdate())
      .executeTakeFirst();
  }

  async nameHolder(firmId: number, name: string, exceptId: number | null) {
    let query = this.db.selectFrom('models').select('id').where('firm_id', '=', firmId).where('name', '=', name);
    if (exceptId !== null) query = query.where('id', '<>', exceptId);
    return query.executeTakeFirst();
  }

  allocations(firmId: number, modelId: number) {
    return this.db
      .selectFrom('model_allocations as a')
      .innerJoin('products as p', 'p.id', 'a.product_id')
      .select(['a.id', 'a.product_id', 'a.target_pct', 'a.lower_pct', 'a.upper_pct', 'p.ticker'])
      .where('a.firm_id', '=', firmId)
      .where('a.model_id', '=', modelId)
      .orderBy('p.ticker')
      .execute();
  }

  equivalents(firmId: number, allocationIds: number[]) {
    if (allocationIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('model_equivalents')
      .select(['model_allocation_id', 'product_id'])
      .where('firm_id', '=', firmId)
      .where('model_allocation_id', 'in', allocationIds)
      .orderBy('rank')
      .execute();
  }

  /** model id → team ids, for the given models. */
  async teamsOf(firmId: number, modelIds: number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>(modelIds.map((id) => [id, []]));
    if (modelIds.length === 0) return out;
    const rows = await this.db.selectFrom('model_teams').select(['model_id', 'team_id']).where('firm_id', '=', firmId).where('model_id', 'in', modelIds).orderBy('team_id').execute();
    for (const row of rows) out.get(row.model_id)?.push(row.team_id);
    return out;
  }

  async teamsOfUser(firmId: number, userId: number): Promise<Set<number>> {
    const rows = await this.db.selectFrom('team_users').select('team_id').where('firm_id', '=', firmId).where('user_id', '=', userId).execute();
    return new Set(rows.map((r) => r.team_id));
  }

  teams(firmId: number, ids?: number[]) {
    let query = this.db.selectFrom('teams').select(['id', 'name']).where('firm_id', '=', firmId);
    if (ids) {
      if (ids.length === 0) return Promise.resolve([]);
      query = query.where('id', 'in', ids);
    }
    return query.orderBy('name').orderBy('id').execute();
  }

  async modelsOfTeam(firmId: number, teamId: number): Promise<number[]> {
    const rows = await this.db.selectFrom('model_teams').select('model_id').where('firm_id', '=', firmId).where('team_id', '=', teamId).orderBy('model_id').execute();
    return rows.map((r) => r.model_id);
  }

  async existingProducts(firmId: number, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.selectFrom('products').select('id').where('firm_id', '=', firmId).where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }

  async insertModel(row: Insertable<ModelTable>): Promise<number> {
    return (await this.db.insertInto('models').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  async updateModel(firmId: number, id: number, row: Updateable<ModelTable>) {
    await this.db.updateTable('models').set(row).where('firm_id', '=', firmId).where('id', '=', id).execute();
  }

  /** The whole allocation is replaced: equivalents hang off allocation rows. Priorities of products that leave the model go. */
  async replaceTargets(firmId: number, modelId: number, targets: { productId: number; target: number; lower: number; upper: number; equivalents: number[] }[]) {
    const kept = targets.flatMap((t) => [t.productId, ...t.equivalents]);
    let stale = this.db.deleteFrom('model_security_priorities').where('firm_id', '=', firmId).where('model_id', '=', modelId);
    if (kept.length > 0) stale = stale.where('product_id', 'not in', kept);
    await stale.execute();
    const old = await this.db.selectFrom('model_allocations').select('id').where('firm_id', '=', firmId).where('model_id', '=', modelId).execute();
    if (old.length > 0) {
      await this.db.deleteFrom('model_equivalents').where('model_allocation_id', 'in', old.map((o) => o.id)).execute();
      await this.db.deleteFrom('model_allocations').where('firm_id', '=', firmId).where('model_id', '=', modelId).execute();
    }
    for (const t of targets) {
      const { id } = await this.db
        .insertInto('model_allocations')
        .values({ firm_id: firmId, model_id: modelId, product_id: t.productId, target_pct: t.target, lower_pct: t.lower, upper_pct: t.upper })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (t.equivalents.length > 0) {
        await this.db
          .insertInto('model_equivalents')
          .values(t.equivalents.map((productId, rank) => ({ firm_id: firmId, model_allocation_id: id, product_id: productId, rank: rank + 1 })))
          .execute();
      }
    }
  }

  async replaceTeams(firmId: number, modelId: number, teamIds: number[]) {
    await this.db.deleteFrom('model_teams').where('firm_id', '=', firmId).where('model_id', '=', modelId).execute();
    if (teamIds.length > 0) await this.db.insertInto('model_teams').values(teamIds.map((teamId) => ({ firm_id: firmId, model_id: modelId, team_id: teamId }))).execute();
  }

  async attach(firmId: number, teamId: number, modelIds: number[]) {
    const held = new Set(await this.modelsOfTeam(firmId, teamId));
    const fresh = modelIds.filter((id) => !held.has(id));
    if (fresh.length > 0) await this.db.insertInto('model_teams').values(fresh.map((modelId) => ({ firm_id: firmId, model_id: modelId, team_id: teamId }))).execute();
  }

  async detach(firmId: number, teamId: number, modelIds: number[]) {
    if (modelIds.length === 0) return;
    await this.db.deleteFrom('model_teams').where('firm_id', '=', firmId).where('team_id', '=', teamId).where('model_id', 'in', modelIds).execute();
  }

  /** The model's targets with their products, then its equivalents (with the target they stand in for). */
  async securities(firmId: number, modelId: number) {
    const targets = await this.db
      .selectFrom('model_allocations as a')
      .innerJoin('products as p', 'p.id', 'a.product_id')
      .select(['a.id', 'a.product_id', 'a.target_pct', 'a.lower_pct', 'a.upper_pct', 'p.ticker', 'p.name', 'p.class', 'p.sub_class', 'p.category'])
      .where('a.firm_id', '=', firmId)
      .where('a.model_id', '=', modelId)
      .orderBy('p.ticker')
      .execute();
    const ids = targets.map((t) => t.id);
    const equivalents =
      ids.length === 0
        ? []
        : await this.db
            .selectFrom('model_equivalents as e')
            .innerJoin('products as p', 'p.id', 'e.product_id')
            .select(['e.model_allocation_id', 'e.product_id', 'e.rank', 'p.ticker', 'p.name'])
            .where('e.firm_id', '=', firmId)
            .where('e.model_allocation_id', 'in', ids)
            .orderBy('e.model_allocation_id')
            .orderBy('e.rank')
            .execute();
    return { targets, equivalents };
  }

  priorities(firmId: number, modelId: number) {
    return this.db.selectFrom('model_security_priorities').selectAll().where('firm_id', '=', firmId).where('model_id', '=', modelId).execute();
  }

  /** Rewrites the priorities of the given products: rows of both nulls are removed, not kept. */
  async setPriorities(firmId: number, modelId: number, rows: { productId: number; buy: number | null; sell: number | null }[], by: string, at: string) {
    if (rows.length === 0) return;
    await this.db
      .deleteFrom('model_security_priorities')
      .where('firm_id', '=', firmId)
      .where('model_id', '=', modelId)
      .where('product_id', 'in', rows.map((r) => r.productId))
      .execute();
    const set = rows.filter((r) => r.buy !== null || r.sell !== null);
    if (set.length === 0) return;
    await this.db
      .insertInto('model_security_priorities')
      .values(set.map((r) => ({ firm_id: firmId, model_id: modelId, product_id: r.productId, buy_priority_id: r.buy, sell_priority_id: r.sell, created_at: at, created_by: by, edited_at: at, edited_by: by })))
      .execute();
  }

  /** Registrations (the application's portfolios) with active accounts on the model, and how many. */
  /** A page of the registrations with active accounts on the model, by name, with how many there are. */
  async portfolios(firmId: number, modelId: number, page: { top: number; skip: number }) {
    const grouped = this.portfolioQuery(firmId, modelId);
    const rows = await grouped.orderBy('r.name').orderBy('r.id').limit(page.top).offset(page.skip).execute();
    const counted = await this.db.selectFrom(grouped.as('p')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return { rows, total: Number(counted?.n ?? 0) };
  }

  private portfolioQuery(firmId: number, modelId: number) {
    return this.db
      .selectFrom('accounts as a')
      .innerJoin('registrations as r', 'r.id', 'a.registration_id')
      .select(['r.id', 'r.name', (eb) => eb.fn.countAll<number>().as('account_count')])
      .where('a.firm_id', '=', firmId)
      .where('a.model_id', '=', modelId)
      .where('a.is_active', '=', 1)
      .groupBy(['r.id', 'r.name']);
  }
}
