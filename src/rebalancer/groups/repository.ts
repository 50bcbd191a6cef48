import { type Kysely, sql } from 'kysely';
import { firmCheck } from '../../db/firm-check.js';
import type { Database } from '../../db/schema.js';

export interface GroupFilter {
  search?: string;
  top: number;
  skip: number;
}

/** Trade groups and aggregate models: the keys of TradeGroup and ModelAgg rebalances. Scoped by firm_id. */
export class GroupRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private named(table: 'trade_groups' | 'model_aggs', firmId: number, search?: string) {
    let query = this.db.selectFrom(table).where('firm_id', '=', firmId);
    const text = search?.trim();
    if (text) {
      const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const id = /^\d{1,9}$/.test(text) ? Number(text) : null;
      query = query.where((eb) => eb.or([...(id === null ? [] : [eb('id', '=', id)]), eb(sql<string>`lower(name)`, 'like', sql<string>`${pattern} escape '\\'`)]));
    }
    return query;
  }

  async page(table: 'trade_groups' | 'model_aggs', firmId: number, filter: GroupFilter) {
    const total = await this.named(table, firmId, filter.search).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await this.named(table, firmId, filter.search).select(['id', 'name']).orderBy('name').orderBy('id').limit(filter.top).offset(filter.skip).execute();
    return { rows, total: Number(total.n) };
  }

  one(table: 'trade_groups' | 'model_aggs', firmId: number, id: number) {
    return this.db.selectFrom(table).select(['id', 'name']).where('firm_id', '=', firmId).where('id', '=', id).executeTakeFirst();
  }

  /** group id → its accounts (id, name, number), by account id. */
  async tradeGroupAccounts(firmId: number, groupIds: number[]) {
    const out = new Map<number, { id: number; name: string; accountNumber: string }[]>(groupIds.map((id) => [id, []]));
    if (groupIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('trade_group_accounts as g')
      .innerJoin('accounts as a', 'a.id', 'g.account_id')
      .select(['g.trade_group_id', 'a.id', 'a.name', 'a.number'])
      .where('g.firm_id', '=', firmId)
      .where('g.trade_group_id', 'in', groupIds)
      .orderBy('a.id')
      .execute();
    for (const r of rows) out.get(r.trade_group_id)?.push({ id: r.id, name: r.name, accountNumber: r.number });
    return out;
  }

  /** group id → how many accounts it holds, counted from the membership's key (a list page reads no member). */
  async tradeGroupAccountCounts(firmId: number, groupIds: number[]) {
    const out = new Map<number, number>(groupIds.map((id) => [id, 0]));
    if (groupIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('trade_group_accounts')
      .select(['trade_group_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('trade_group_id', 'in', groupIds)
      .where('firm_id', '=', firmId)
      .groupBy('trade_group_id')
      .execute();
    for (const r of rows) out.set(r.trade_group_id, Number(r.n));
    return out;
  }

  /** aggregate model id → its models with their weights. */
  async aggModels(firmId: number, aggIds: number[]) {
    const out = new Map<number, { modelId: number; name: string; weightPercent: number }[]>(aggIds.map((id) => [id, []]));
    if (aggIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('model_agg_models as g')
      .innerJoin('models as m', 'm.id', 'g.model_id')
      .select(['g.model_agg_id', 'g.model_id', 'g.weight_pct', 'm.name'])
      .where('g.firm_id', '=', firmId)
      .where('g.model_agg_id', 'in', aggIds)
      .orderBy('m.name')
      .execute();
    for (const r of rows) out.get(r.model_agg_id)?.push({ modelId: r.model_id, name: r.name, weightPercent: Number(r.weight_pct) });
    return out;
  }

  /** aggregate model id → how many accounts a ModelAgg rebalance of it takes (accounts on any of its models). */
  async aggAccountCounts(firmId: number, aggIds: number[]) {
    const out = new Map<number, number>(aggIds.map((id) => [id, 0]));
    if (aggIds.length === 0) return out;
    // From the aggregates' models to their accounts by the model index, the firm a check on the
    // accounts found: led by the firm, the count read every account of the firm for each page.
    // An aggregate names each model once, so no account is counted twice.
    const rows = await this.db
      .selectFrom('model_agg_models as m')
      .innerJoin('accounts as a', 'a.model_id', 'm.model_id')
      .select(['m.model_agg_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('m.firm_id', '=', firmId)
      .where('m.model_agg_id', 'in', aggIds)
      .where(firmCheck('a.firm_id'), '=', firmId)
      .groupBy('m.model_agg_id')
      .execute();
    for (const r of rows) out.set(r.model_agg_id, Number(r.n));
    return out;
  }
}
