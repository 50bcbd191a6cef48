import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, RebalancerSyncLogTable, RebalancerTradeBlockDetailTable } from '../../db/schema.js';
import { RelatedType } from './schemas.js';

export type CopyRow = Selectable<RebalancerTradeBlockDetailTable>;
type Editable = Partial<Omit<CopyRow, 'id' | 'firm_id' | 'global_id' | 'created_at' | 'created_by'>>;
export interface DetailFilter { relatedType?: number; relatedTypeId?: number; includeDeleted: boolean }

/** The rebalancing application's own store of trade block details. */
export class RebalancerTradeBlockRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (repository: RebalancerTradeBlockRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new RebalancerTradeBlockRepository(trx)));
  }

  /** False when this event was logged before: a redelivery, to be ignored. */
  async logEvent(row: Insertable<RebalancerSyncLogTable>): Promise<boolean> {
    const inserted = await this.db
      .insertInto('rebalancer_sync_log')
      .values(row)
      .onConflict((oc) => oc.column('event_id').doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  async setOutcome(eventId: number, outcome: RebalancerSyncLogTable['outcome']) {
    await this.db.updateTable('rebalancer_sync_log').set({ outcome }).where('event_id', '=', eventId).execute();
  }

  syncLog(firmId: number, globalId: string) {
    return this.db
      .selectFrom('rebalancer_sync_log')
      .selectAll()
      .where('firm_id', '=', firmId)
      .where('global_id', '=', globalId)
      .orderBy('id')
      .execute();
  }

  byGlobalId(firmId: number, globalId: string) {
    return this.db
      .selectFrom('rebalancer_trade_block_details')
      .selectAll()
      .where('firm_id', '=', firmId)
      .where('global_id', '=', globalId)
      .executeTakeFirst();
  }

  byId(firmId: number, id: number) {
    return this.db.selectFrom('rebalancer_trade_block_details').selectAll().where('firm_id', '=', firmId).where('id', '=', id).executeTakeFirst();
  }

  /** Up to `limit` of the firm's details after `afterId`, by id: a firm may hold tens of thousands. */
  /** `skip` applies to the first page only: later pages start after the id the page before ended at. */
  list(firmId: number, filter: DetailFilter, afterId: number, limit: number, skip = 0) {
    return this.matching(firmId, filter).selectAll().where('id', '>', afterId).orderBy('id').limit(limit).offset(skip).execute();
  }

  async count(firmId: number, filter: DetailFilter): Promise<number> {
    const counted = await this.matching(firmId, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return Number(counted?.n ?? 0);
  }

  private matching(firmId: number, filter: DetailFilter) {
    let query = this.db.selectFrom('rebalancer_trade_block_details').where('firm_id', '=', firmId);
    if (filter.relatedType !== undefined) query = query.where('related_type', '=', filter.relatedType);
    if (filter.relatedTypeId !== undefined) query = query.where('related_type_id', '=', filter.relatedTypeId);
    if (!filter.includeDeleted) query = query.where('is_deleted', '=', 0);
    return query;
  }

  async insert(rows: Insertable<RebalancerTradeBlockDetailTable>[]): Promise<number[]> {
    if (rows.length === 0) return [];
    const inserted = await this.db.insertInto('rebalancer_trade_block_details').values(rows).returning('id').execute();
    return inserted.map((r) => r.id);
  }

  async update(id: number, columns: Editable) {
    await this.db.updateTable('rebalancer_trade_block_details').set(columns).where('id', '=', id).execute();
  }

  /** Ids among `ids` of the given related type that exist in the firm's book. */
  async existingRelated(firmId: number, relatedType: number, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const table = relatedType === RelatedType.Portfolio ? 'registrations' : 'accounts';
    const rows = await this.db.selectFrom(table).select('id').where('firm_id', '=', firmId).where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }

  reasons(firmId: number) {
    return this.db.selectFrom('trade_block_reasons').select(['id', 'name']).where('firm_id', '=', firmId).execute();
  }
}
