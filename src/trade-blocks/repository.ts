import { type Expression, expressionBuilder, type Insertable, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Database, TradeBlockDetailTable, TradeBlockHistoryTable, TradeBlockReasonTable } from '../db/schema.js';
import { type OutboxMessage, OutboxRepository } from '../outbox/repository.js';
import { idChunks, inIds, slices } from '../db/id-chunks.js';
import { preparedQuery } from '../db/prepared.js';
import { EntityEnum } from './schemas.js';

export type ReasonRow = Selectable<TradeBlockReasonTable>;
export type DetailRow = Selectable<TradeBlockDetailTable>;
export type DetailView = NonNullable<Awaited<ReturnType<TradeBlockRepository['detailById']>>>;

export interface FirmOptions {
  multiTradeBlock: boolean;
  dates: boolean;
  customTypes: boolean;
}

/** Rows a multi-row insert: a detail has about 15 columns, so 400 rows stay under every driver's parameter limit. */
const ROWS_PER_INSERT = 400;

/** Compiled once per dialect (its SQL checked in: `repository.sql.test.ts`). */
export const detailWithDateOption = preparedQuery((db, firmId: number, id: number) =>
  new TradeBlockRepository(db).views(firmId).innerJoin('firms as f', 'f.id', 'd.firm_id').select('f.trade_block_dates').where('d.id', '=', id),
);

/** Details (as `d`) on any of the accounts or registrations; at least one list is not empty. */
function entityFilter(db: Kysely<Database>, accountIds: number[], registrationIds: number[]): Expression<SqlBool> {
  const eb = expressionBuilder<{ d: TradeBlockDetailTable }, 'd'>();
  return eb.or([
    ...(accountIds.length > 0 ? [eb.and([eb('d.entity_enum', '=', EntityEnum.Account), inIds(db, 'd.entity_id', accountIds)])] : []),
    ...(registrationIds.length > 0 ? [eb.and([eb('d.entity_enum', '=', EntityEnum.Registration), inIds(db, 'd.entity_id', registrationIds)])] : []),
  ]);
}

/** The only Kysely user of the trade block tables; every query is scoped by firm. */
export class TradeBlockRepository {
  constructor(readonly db: Kysely<Database>) {}

  /** The same reads and writes inside a caller's transaction. */
  within(trx: Kysely<Database>) {
    return new TradeBlockRepository(trx);
  }

  transaction<T>(work: (repository: TradeBlockRepository) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return work(this);
    return this.db.transaction().execute((trx) => work(new TradeBlockRepository(trx)));
  }

  async firmOptions(firmId: number): Promise<FirmOptions | undefined> {
    const row = await this.db
      .selectFrom('firms')
      .select(['multi_trade_block', 'trade_block_dates', 'trade_block_custom_types'])
      .where('id', '=', firmId)
      .executeTakeFirst();
    if (!row) return undefined;
    return { multiTradeBlock: row.multi_trade_block === 1, dates: row.trade_block_dates === 1, customTypes: row.trade_block_custom_types === 1 };
  }

  // Reasons.

  async insertReasonsIfMissing(rows: Insertable<TradeBlockReasonTable>[]) {
    await this.db
      .insertInto('trade_block_reasons')
      .values(rows)
      .onConflict((oc) => oc.columns(['firm_id', 'name']).doNothing())
      .execute();
  }

  reasons(firmId: number): Promise<ReasonRow[]> {
    return this.db.selectFrom('trade_block_reasons').selectAll().where('firm_id', '=', firmId).orderBy('id').execute();
  }

  reasonByGlobalId(firmId: number, globalId: string) {
    return this.db
      .selectFrom('trade_block_reasons')
      .selectAll()
      .where('firm_id', '=', firmId)
      .where('global_id', '=', globalId.toLowerCase())
      .executeTakeFirst();
  }

  reasonById(firmId: number, id: number) {
    return this.db.selectFrom('trade_block_reasons').selectAll().where('firm_id', '=', firmId).where('id', '=', id).executeTakeFirst();
  }

  async updateReason(id: number, columns: Partial<Pick<ReasonRow, 'name' | 'allow_detail_assignment' | 'edited_at' | 'edited_by'>>) {
    await this.db.updateTable('trade_block_reasons').set(columns).where('id', '=', id).execute();
  }

  async deleteReason(id: number) {
    await this.db.deleteFrom('trade_block_reasons').where('id', '=', id).execute();
  }

  // Details.

  views(firmId: number) {
    return this.db
      .selectFrom('trade_block_details as d')
      .innerJoin('trade_block_reasons as tr', 'tr.id', 'd.reason_id')
      .leftJoin('accounts as a', (join) => join.onRef('a.id', '=', 'd.entity_id').on('d.entity_enum', '=', EntityEnum.Account))
      .leftJoin('registrations as r', (join) =>
        join.onRef('r.id', '=', 'd.entity_id').on('d.entity_enum', '=', EntityEnum.Registration),
      )
      .selectAll('d')
      .select([
        'tr.name as reason_name',
        'tr.global_id as reason_global_id',
        'tr.is_system_maintained as reason_system',
        'tr.allow_detail_assignment as reason_assignable',
        'a.name as account_name',
        'r.name as registration_name',
      ])
      .where('d.firm_id', '=', firmId);
  }

  detailById(firmId: number, id: number) {
    return this.views(firmId).where('d.id', '=', id).executeTakeFirst();
  }

  /** The hot read of one detail: the firm's date option comes along in the same query. */
  async detailWithDateOption(firmId: number, id: number) {
    const result = await detailWithDateOption(this.db, firmId, id);
    return result.rows[0];
  }

  detailsByIds(firmId: number, ids: number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.views(firmId).where('d.id', 'in', ids).orderBy('d.id').execute();
  }

  async detailsByGlobalIds(firmId: number, globalIds: string[]) {
    const out: DetailView[] = [];
    for (const part of idChunks(this.db, globalIds)) out.push(...(await this.views(firmId).where('d.global_id', 'in', part).execute()));
    return out;
  }

  /** Details on any of the given accounts or registrations. */
  detailsOnEntities(firmId: number, accountIds: number[], registrationIds: number[], includeDeleted = false) {
    if (accountIds.length === 0 && registrationIds.length === 0) return Promise.resolve([]);
    return this.onEntities(firmId, accountIds, registrationIds, includeDeleted).orderBy('d.id').execute();
  }

  /**
   * The live details on the entities in id order, with only what the rebalance engine reads of them
   * (tradeBlocksOf). Not `detailsOnEntities`: its views join every detail to its account and
   * registration for their names, and for a chunk's thousands of ids PostgreSQL planned those left
   * joins as scans of the firm's whole accounts and registrations tables, 28 ms a chunk for a
   * hundred details found in under one.
   */
  liveBlocksOnEntities(firmId: number, accountIds: number[], registrationIds: number[]) {
    if (accountIds.length === 0 && registrationIds.length === 0) return Promise.resolve([]);
    return this.liveBlocksQuery(firmId, accountIds, registrationIds).execute();
  }

  /** liveBlocksOnEntities' query (its SQL is checked in: `repository.sql.test.ts`). */
  liveBlocksQuery(firmId: number, accountIds: number[], registrationIds: number[]) {
    return this.db
      .selectFrom('trade_block_details as d')
      .innerJoin('trade_block_reasons as tr', 'tr.id', 'd.reason_id')
      .select(['d.id', 'd.entity_enum', 'd.entity_id', 'd.description', 'd.start_date', 'd.end_date', 'tr.name as reason_name'])
      .where('d.firm_id', '=', firmId)
      .where(entityFilter(this.db, accountIds, registrationIds))
      .where('d.is_deleted', '=', 0)
      .orderBy('d.id');
  }

  /** A page of the live details on the entities in id order, with how many there are (one entity's blocks: always counted). */
  async detailsOnEntitiesPage(firmId: number, accountIds: number[], registrationIds: number[], page: { top: number; skip: number }) {
    if (accountIds.length === 0 && registrationIds.length === 0) return { rows: [], total: 0 };
    const query = this.onEntities(firmId, accountIds, registrationIds, false);
    const rows = await query.orderBy('d.id').limit(page.top).offset(page.skip).execute();
    const counted = await query.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return { rows, total: Number(counted?.n ?? 0) };
  }

  private onEntities(firmId: number, accountIds: number[], registrationIds: number[], includeDeleted: boolean) {
    let query = this.views(firmId).where(entityFilter(this.db, accountIds, registrationIds));
    if (!includeDeleted) query = query.where('d.is_deleted', '=', 0);
    return query;
  }

  detailsWithReason(firmId: number, reasonId: number) {
    return this.views(firmId).where('d.reason_id', '=', reasonId).orderBy('d.id').execute();
  }

  async existingGlobalIds(firmId: number, globalIds: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const part of idChunks(this.db, globalIds)) {
      const rows = await this.db
        .selectFrom('trade_block_details')
        .select('global_id')
        .where('firm_id', '=', firmId)
        .where('global_id', 'in', part)
        .execute();
      for (const row of rows) found.add(row.global_id);
    }
    return found;
  }

  async insertDetails(rows: Insertable<TradeBlockDetailTable>[]): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    for (const part of slices(rows, ROWS_PER_INSERT)) {
      const inserted = await this.db.insertInto('trade_block_details').values(part).returning(['id', 'global_id']).execute();
      for (const row of inserted) ids.set(row.global_id, row.id);
    }
    return ids;
  }

  /** The same columns on every detail of `ids`. */
  async updateDetails(
    ids: number[],
    columns: Partial<Pick<DetailRow, 'description' | 'start_date' | 'end_date' | 'is_deleted' | 'reason_id' | 'version' | 'edited_at' | 'edited_by'>>,
  ) {
    for (const part of idChunks(this.db, ids)) await this.db.updateTable('trade_block_details').set(columns).where('id', 'in', part).execute();
  }

  async insertHistory(rows: Insertable<TradeBlockHistoryTable>[]) {
    for (const part of slices(rows, ROWS_PER_INSERT)) await this.db.insertInto('trade_block_history').values(part).execute();
  }

  history(firmId: number, detailId: number) {
    return this.db
      .selectFrom('trade_block_history')
      .selectAll()
      .where('firm_id', '=', firmId)
      .where('detail_id', '=', detailId)
      .orderBy('id')
      .execute();
  }

  enqueue(messages: OutboxMessage[], now: string) {
    return OutboxRepository.enqueue(this.db, messages, now);
  }

  // The book entities a block can sit on.

  async accounts(firmId: number, ids: number[]) {
    const out: { id: number; name: string; registration_id: number; is_trading_blocked: number; is_sma: number }[] = [];
    for (const part of idChunks(this.db, [...new Set(ids)])) {
      out.push(
        ...(await this.db
          .selectFrom('accounts')
          .select(['id', 'name', 'registration_id', 'is_trading_blocked', 'is_sma'])
          .where('firm_id', '=', firmId)
          .where('id', 'in', part)
          .execute()),
      );
    }
    return out;
  }

  async registrations(firmId: number, ids: number[]) {
    const out: { id: number; name: string; is_sleeved: number; do_not_trade: number }[] = [];
    for (const part of idChunks(this.db, [...new Set(ids)])) {
      out.push(
        ...(await this.db
          .selectFrom('registrations')
          .select(['id', 'name', 'is_sleeved', 'do_not_trade'])
          .where('firm_id', '=', firmId)
          .where('id', 'in', part)
          .execute()),
      );
    }
    return out;
  }

  accountsOfRegistration(firmId: number, registrationId: number) {
    return this.db
      .selectFrom('accounts')
      .select(['id', 'name'])
      .where('firm_id', '=', firmId)
      .where('registration_id', '=', registrationId)
      .orderBy('id')
      .execute();
  }

  async setSma(firmId: number, accountId: number, isSma: boolean, at: string, by: string) {
    await this.db.updateTable('accounts').set({ is_sma: isSma ? 1 : 0, edited_at: at, edited_by: by }).where('firm_id', '=', firmId).where('id', '=', accountId).execute();
  }

  async setLegacyFlag(firmId: number, entityEnum: number, ids: number[], blocked: boolean, at: string, by: string) {
    if (ids.length === 0) return;
    const audit = { edited_at: at, edited_by: by };
    if (entityEnum === EntityEnum.Account) {
      await this.db.updateTable('accounts').set({ is_trading_blocked: blocked ? 1 : 0, ...audit }).where('firm_id', '=', firmId).where('id', 'in', ids).execute();
    } else {
      await this.db.updateTable('registrations').set({ do_not_trade: blocked ? 1 : 0, ...audit }).where('firm_id', '=', firmId).where('id', 'in', ids).execute();
    }
  }
}
