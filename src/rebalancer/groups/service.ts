import { notFound } from '../../shared/errors.js';
import type { GroupFilter, GroupRepository } from './repository.js';
import type { ModelAggDetail, ModelAggItem, TradeGroupDetail, TradeGroupItem } from './schemas.js';

/** Lists of the keys a TradeGroup or ModelAgg rebalance (section 2.9, entity and keys) takes. */
export class GroupService {
  constructor(private readonly repository: GroupRepository) {}

  async tradeGroups(firmId: number, filter: GroupFilter): Promise<{ items: TradeGroupItem[]; total: number }> {
    const { rows, total } = await this.repository.page('trade_groups', firmId, filter);
    const counts = await this.repository.tradeGroupAccountCounts(firmId, rows.map((r) => r.id));
    return { items: rows.map((r) => ({ id: r.id, name: r.name, accountCount: counts.get(r.id) ?? 0 })), total };
  }

  async tradeGroup(firmId: number, id: number): Promise<TradeGroupDetail> {
    const row = await this.repository.one('trade_groups', firmId, id);
    if (!row) throw notFound('trade group', id);
    const accounts = (await this.repository.tradeGroupAccounts(firmId, [id])).get(id) ?? [];
    return { id: row.id, name: row.name, accountCount: accounts.length, accounts };
  }

  async modelAggs(firmId: number, filter: GroupFilter): Promise<{ items: ModelAggItem[]; total: number }> {
    const { rows, total } = await this.repository.page('model_aggs', firmId, filter);
    const ids = rows.map((r) => r.id);
    const models = await this.repository.aggModels(firmId, ids);
    const counts = await this.repository.aggAccountCounts(firmId, ids);
    return { items: rows.map((r) => ({ id: r.id, name: r.name, modelCount: models.get(r.id)?.length ?? 0, accountCount: counts.get(r.id) ?? 0 })), total };
  }

  async modelAgg(firmId: number, id: number): Promise<ModelAggDetail> {
    const row = await this.repository.one('model_aggs', firmId, id);
    if (!row) throw notFound('aggregate model', id);
    const models = (await this.repository.aggModels(firmId, [id])).get(id) ?? [];
    const accountCount = (await this.repository.aggAccountCounts(firmId, [id])).get(id) ?? 0;
    return { id: row.id, name: row.name, modelCount: models.length, accountCount, models };
  }
}
