import { type Kysely, sql } from 'kysely';
import { type BulkColumn, bulkInsert, type Column, type ColumnType } from '../db/bulk-insert.js';
import { copyRows } from '../db/copy-rows.js';
import { isPostgres } from '../db/dialect.js';
import { firmCheck } from '../db/firm-check.js';
import { idChunks } from '../db/id-chunks.js';
import { type PageRequest, withTotal } from '../db/paging.js';
import type { Database } from '../db/schema.js';
import type { LotSelection } from '../engine/index.js';

export interface NewTrade {
  accountId: number;
  productId: number;
  side: 'Buy' | 'Sell';
  tradeType: 'Dollars' | 'Shares';
  sharesMicros: number;
  amountCents: number;
  priceMicros: number;
  reason: string;
  /** Tax-aware sells in taxable accounts: the planned lots as JSON, and the estimated gains. */
  lots?: string | null;
  shortTermGainCents?: number | null;
  longTermGainCents?: number | null;
}

/** One household's line of a tax-aware batch's summary. */
export interface NewTaxSummary {
  householdId: number;
  shortTermGainCents: number;
  longTermGainCents: number;
  harvestedLossCents: number;
  washSaleMoves: number;
  budgetCuts: number;
}

export interface NewMessage {
  accountId: number | null;
  severity: 'Error' | 'Warning' | 'Info';
  code: string;
  message: string;
}

/** Cash a registration-level rebalance moves into (+) or out of (−) a sleeve. */
export interface NewTransfer {
  registrationId: number;
  accountId: number;
  amountCents: number;
  currentPct: number;
  targetPct: number;
  outOfBand: boolean;
}

const INSERT_ROWS = 500;

const TRADE_COLUMNS: BulkColumn<'trades'>[] = [
  ['account_id', 'int4'],
  ['product_id', 'int4'],
  ['side', 'text'],
  ['trade_type', 'text'],
  ['shares_micros', 'int8'],
  ['amount_cents', 'int8'],
  ['price_micros', 'int8'],
  ['reason', 'text'],
];
const TAX_TRADE_COLUMNS: BulkColumn<'trades'>[] = [...TRADE_COLUMNS, ['lots', 'text'], ['short_term_gain_cents', 'int8'], ['long_term_gain_cents', 'int8']];
const TAX_SUMMARY_COLUMNS: BulkColumn<'batch_tax_summaries'>[] = [
  ['client_id', 'int4'],
  ['short_term_gain_cents', 'int8'],
  ['long_term_gain_cents', 'int8'],
  ['harvested_loss_cents', 'int8'],
  ['wash_sale_moves', 'int4'],
  ['budget_cuts', 'int4'],
];
const TRANSFER_COLUMNS: BulkColumn<'sleeve_transfers'>[] = [
  ['registration_id', 'int4'],
  ['account_id', 'int4'],
  ['amount_cents', 'int8'],
  ['current_pct', 'float8'],
  ['target_pct', 'float8'],
  ['out_of_band', 'int4'],
];
const MESSAGE_COLUMNS: BulkColumn<'batch_messages'>[] = [
  ['account_id', 'int4'],
  ['severity', 'text'],
  ['code', 'text'],
  ['message', 'text'],
];

function insertInstance(
  trx: Kysely<Database>,
  routine: 'Rebalance' | 'QuickTrade',
  input: { firmId: number; userName: string; notes: string | null; request: string; lotSelection?: LotSelection | null; now: string },
) {
  return trx
    .insertInto('trade_instances')
    .values({ firm_id: input.firmId, routine, notes: input.notes, request: input.request, lot_selection: input.lotSelection ?? null, status: 'Open', created_at: input.now, created_by: input.userName })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/**
 * Adds written trades to their instance's count. Called last before the batch's own counters in a
 * chunk's transaction: two workers finishing chunks of one batch wait on these rows in turn, so
 * the lock is taken as late as possible and in the same order everywhere.
 */
async function countTrades(trx: Kysely<Database>, instanceId: number, written: number) {
  if (written === 0) return;
  await trx.updateTable('trade_instances').set({ trade_count: sql`trade_count + ${written}` }).where('id', '=', instanceId).execute();
}

/** New trades are open orders of their instance, however they were produced. */
function insertTrades(trx: Kysely<Database>, firmId: number, instanceId: number, trades: NewTrade[], now: string) {
  const constants: [Column<'trades'>, ColumnType, string | number][] = [['firm_id', 'int4', firmId], ['trade_instance_id', 'int4', instanceId], ['status', 'text', 'Open'], ['created_at', 'text', now]];
  // Only tax-aware trades carry lots; the others keep the narrower insert.
  if (trades.some((t) => t.lots != null)) {
    return copyRows(trx, 'trades', TAX_TRADE_COLUMNS, constants, trades.map((t) => [t.accountId, t.productId, t.side, t.tradeType, t.sharesMicros, t.amountCents, t.priceMicros, t.reason, t.lots ?? null, t.shortTermGainCents ?? null, t.longTermGainCents ?? null]));
  }
  return copyRows(trx, 'trades', TRADE_COLUMNS, constants, trades.map((t) => [t.accountId, t.productId, t.side, t.tradeType, t.sharesMicros, t.amountCents, t.priceMicros, t.reason]));
}

export const EMPTY_SELECTION = 'The selection holds no accounts: there is nothing to rebalance.';

/** Runs inside the transaction that ends a batch: what it writes commits with the status or not at all. */
export type BatchEndedHook = (trx: Kysely<Database>, batchId: number, now: string) => Promise<void>;

export class TradingRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly onBatchEnded: BatchEndedHook = async () => undefined,
  ) {}

  /** The trade instance, its batch and the batch's chunks, written together. */
  async createBatch(input: {
    firmId: number;
    userId: number;
    userName: string;
    routine: 'Rebalance' | 'QuickTrade';
    notes: string | null;
    request: string;
    /** The lot method of a tax-aware run (executions relieve lots by it); absent or null otherwise. */
    lotSelection?: LotSelection | null;
    chunks: number[][];
    totalItems: number;
    now: string;
  }) {
    // A selection without accounts has nothing to wait for: its batch is written already ended
    // (docs/decisions/faults-and-hostile-input.md), so neither a poller nor `wait=true` waits for chunks that never come.
    const empty = input.chunks.length === 0;
    return this.db.transaction().execute(async (trx) => {
      const instance = await insertInstance(trx, input.routine, input);
      const batch = await trx
        .insertInto('batches')
        .values({
          firm_id: input.firmId,
          trade_instance_id: instance.id,
          status: empty ? 'Complete' : 'Running',
          message: empty ? EMPTY_SELECTION : '',
          completed_at: empty ? input.now : null,
          total_items: input.totalItems,
          chunks_total: input.chunks.length,
          created_at: input.now,
          created_by: input.userName,
          created_by_user_id: input.userId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const chunkIds: number[] = [];
      for (let i = 0; i < input.chunks.length; i += INSERT_ROWS) {
        const rows = await trx
          .insertInto('batch_chunks')
          .values(input.chunks.slice(i, i + INSERT_ROWS).map((keys, j) => ({ firm_id: input.firmId, batch_id: batch.id, seq: i + j, keys: JSON.stringify(keys) })))
          .returning('id')
          .execute();
        chunkIds.push(...rows.map((r) => r.id));
      }
      if (empty) {
        await trx
          .insertInto('batch_messages')
          .values({ firm_id: input.firmId, batch_id: batch.id, account_id: null, severity: 'Info', code: 'EMPTY_SELECTION', message: EMPTY_SELECTION, created_at: input.now })
          .execute();
        await this.onBatchEnded(trx, batch.id, input.now);
      }
      return { instanceId: instance.id, batchId: batch.id, chunkIds };
    });
  }

  chunk(chunkId: number) {
    return this.db
      .selectFrom('batch_chunks as c')
      .innerJoin('batches as b', 'b.id', 'c.batch_id')
      .select(['c.id', 'c.firm_id', 'c.batch_id', 'c.keys', 'c.attempts', 'c.done_at', 'b.status as batch_status', 'b.trade_instance_id', 'b.created_at'])
      .where('c.id', '=', chunkId)
      .executeTakeFirst();
  }

  /**
   * The stored request of a batch. Not part of `chunk`: it holds every key of the run (8 MB for a
   * million accounts), and a process reads it once per batch, not once per chunk.
   */
  async batchRequest(batchId: number): Promise<string> {
    const row = await this.db
      .selectFrom('batches as b')
      .innerJoin('trade_instances as i', 'i.id', 'b.trade_instance_id')
      .select('i.request')
      .where('b.id', '=', batchId)
      .executeTakeFirstOrThrow();
    return row.request;
  }

  async countAttempt(chunkId: number) {
    await this.db.updateTable('batch_chunks').set((eb) => ({ attempts: eb('attempts', '+', 1) })).where('id', '=', chunkId).execute();
  }

  /**
   * Writes a chunk's trades and messages and advances the batch, in one transaction guarded by
   * the chunk's `done_at`: a chunk retried after a crash writes nothing twice. Returns the batch
   * when this chunk finished it.
   */
  async completeChunk(
    chunk: { id: number; firmId: number; batchId: number; instanceId: number; items: number },
    trades: NewTrade[],
    messages: NewMessage[],
    now: string,
    transfers: NewTransfer[] = [],
    taxSummaries: NewTaxSummary[] = [],
  ) {
    return this.db.transaction().execute(async (trx) => {
      const claimed = await trx.updateTable('batch_chunks').set({ done_at: now }).where('id', '=', chunk.id).where('done_at', 'is', null).executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return { wrote: false as const };
      await insertTrades(trx, chunk.firmId, chunk.instanceId, trades, now);
      await copyRows(
        trx,
        'batch_messages',
        MESSAGE_COLUMNS,
        [['firm_id', 'int4', chunk.firmId], ['batch_id', 'int4', chunk.batchId], ['created_at', 'text', now]],
        messages.map((m) => [m.accountId, m.severity, m.code, m.message]),
      );
      await bulkInsert(
        trx,
        'sleeve_transfers',
        TRANSFER_COLUMNS,
        [['firm_id', 'int4', chunk.firmId], ['trade_instance_id', 'int4', chunk.instanceId], ['batch_id', 'int4', chunk.batchId], ['created_at', 'text', now]],
        transfers.map((t) => [t.registrationId, t.accountId, t.amountCents, t.currentPct, t.targetPct, t.outOfBand ? 1 : 0]),
      );
      await bulkInsert(
        trx,
        'batch_tax_summaries',
        TAX_SUMMARY_COLUMNS,
        [['firm_id', 'int4', chunk.firmId], ['batch_id', 'int4', chunk.batchId]],
        taxSummaries.map((t) => [t.householdId, t.shortTermGainCents, t.longTermGainCents, t.harvestedLossCents, t.washSaleMoves, t.budgetCuts]),
      );
      await countTrades(trx, chunk.instanceId, trades.length);
      const items = chunk.items;
      const errors = new Set(messages.filter((m) => m.severity === 'Error').map((m) => m.accountId)).size;
      const warnings = messages.filter((m) => m.severity === 'Warning').length;
      await trx
        .updateTable('batches')
        .set({
          items_completed: sql`items_completed + ${items}`,
          error_count: sql`error_count + ${errors}`,
          warning_count: sql`warning_count + ${warnings}`,
          chunks_done: sql`chunks_done + 1`,
        })
        .where('id', '=', chunk.batchId)
        .execute();
      // The last chunk closes the batch; the status condition keeps a second closer out.
      const closed = await trx
        .updateTable('batches')
        .set({ status: sql`case when error_count > 0 then 'Failed' else 'Complete' end`, completed_at: now, message: sql`case when error_count > 0 then 'Errors occurred during trade generation.' else '' end` })
        .where('id', '=', chunk.batchId)
        .where('status', '=', 'Running')
        .whereRef('chunks_done', '=', 'chunks_total')
        .executeTakeFirst();
      const finished = Number(closed.numUpdatedRows) === 1;
      if (finished) await this.onBatchEnded(trx, chunk.batchId, now);
      return { wrote: true as const, finished };
    });
  }

  /** A batch that can make no further progress ends Failed with the reason. */
  async failBatch(batchId: number, message: string, now: string) {
    await this.db.transaction().execute(async (trx) => {
      const failed = await trx.updateTable('batches').set({ status: 'Failed', message, completed_at: now }).where('id', '=', batchId).where('status', '=', 'Running').executeTakeFirst();
      if (Number(failed.numUpdatedRows) === 1) await this.onBatchEnded(trx, batchId, now);
    });
  }

  /**
   * Running batches whose last sign of progress (its creation, or the last chunk done) is older
   * than `before`: their workers are gone or their chunks keep failing without end.
   */
  async stalledBatches(before: string) {
    return this.db
      .selectFrom('batches as b')
      .leftJoin('batch_chunks as c', 'c.batch_id', 'b.id')
      .select(['b.id', 'b.chunks_total', 'b.chunks_done'])
      .select((eb) => eb.fn.max('c.done_at').as('last_done_at'))
      .where('b.status', '=', 'Running')
      .where('b.created_at', '<', before)
      .groupBy(['b.id', 'b.chunks_total', 'b.chunks_done'])
      .having((eb) => eb.or([eb(eb.fn.max('c.done_at'), 'is', null), eb(eb.fn.max('c.done_at'), '<', before)]))
      .execute();
  }

  batch(firmId: number, batchId: number) {
    return this.db.selectFrom('batches').selectAll().where('firm_id', '=', firmId).where('id', '=', batchId).executeTakeFirst();
  }

  batchById(batchId: number) {
    return this.db.selectFrom('batches').selectAll().where('id', '=', batchId).executeTakeFirst();
  }

  /** Up to `limit` of the batch's messages after `afterId`, by id (a batch of 100,000 accounts may have as many). */
  messages(firmId: number, batchId: number, afterId: number, limit: number, skip = 0) {
    return this.db
      .selectFrom('batch_messages')
      .select(['id', 'severity', 'message', 'account_id'])
      .where('firm_id', '=', firmId)
      .where('batch_id', '=', batchId)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .offset(skip)
      .execute();
  }

  async messageCount(firmId: number, batchId: number): Promise<number> {
    const row = await this.db
      .selectFrom('batch_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('firm_id', '=', firmId)
      .where('batch_id', '=', batchId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Chunks of running batches not yet done: work an in-process queue resumes after a restart. */
  pendingChunks() {
    return this.db
      .selectFrom('batch_chunks as c')
      .innerJoin('batches as b', 'b.id', 'c.batch_id')
      .select(['c.id'])
      .where('b.status', '=', 'Running')
      .where('c.done_at', 'is', null)
      .orderBy('c.id')
      .execute();
  }

  // --- expanding a request's entity and keys into accounts

  firm(firmId: number) {
    return this.db.selectFrom('firms').select(['id', 'name', 'default_asset_values']).where('id', '=', firmId).executeTakeFirstOrThrow();
  }

  async existing(table: 'trade_groups' | 'model_aggs', firmId: number, ids: number[]) {
    const rows = await this.db.selectFrom(table).select('id').where('firm_id', '=', firmId).where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }

  async tradeGroupAccounts(firmId: number, groupIds: number[]) {
    const rows = await this.db
      .selectFrom('trade_group_accounts')
      .select('account_id')
      .where('firm_id', '=', firmId)
      .where('trade_group_id', 'in', groupIds)
      .orderBy('account_id')
      .execute();
    return rows.map((r) => r.account_id);
  }

  async modelAggAccounts(firmId: number, aggIds: number[]) {
    const rows = await this.db
      .selectFrom('accounts as a')
      .innerJoin('model_agg_models as m', 'm.model_id', 'a.model_id')
      .select('a.id')
      .where('a.firm_id', '=', firmId)
      .where('m.model_agg_id', 'in', aggIds)
      .orderBy('a.id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Positions held by the named accounts of the firm (a sample, to size a batch's chunks). */
  async positionCount(firmId: number, accountIds: number[]): Promise<number> {
    if (accountIds.length === 0) return 0;
    const row = await this.db
      .selectFrom('positions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('firm_id', '=', firmId)
      .where('account_id', 'in', accountIds)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The household (client) of each named account of the firm, ordered by household then account.
   * Read in slices: a batch may name a million accounts, past any statement's parameter limit.
   */
  async householdsOf(firmId: number, accountIds: number[]) {
    const rows: { id: number; client_id: number }[] = [];
    for (const slice of idChunks(this.db, accountIds)) {
      rows.push(...(await this.db.selectFrom('accounts as a').innerJoin('registrations as r', 'r.id', 'a.registration_id').select(['a.id', 'r.client_id']).where('a.firm_id', '=', firmId).where('a.id', 'in', slice).execute()));
    }
    return rows.sort((a, b) => a.client_id - b.client_id || a.id - b.id);
  }

  /**
   * A page of a tax-aware batch's per-household summary in household order (a household is never
   * split, so one row each; a batch of 100,000 accounts has about 50,000). `$skip` walks the
   * (batch_id, client_id) index to the page's first household.
   */
  async taxSummaryPage(firmId: number, batchId: number, page: PageRequest & { householdId?: number }) {
    const ofBatch = () => {
      let query = this.db.selectFrom('batch_tax_summaries as s').where('s.batch_id', '=', batchId);
      if (page.householdId !== undefined) query = query.where('s.client_id', '=', page.householdId);
      return query;
    };
    let query = this.db
      .selectFrom('batch_tax_summaries')
      .select(['client_id', 'short_term_gain_cents', 'long_term_gain_cents', 'harvested_loss_cents', 'wash_sale_moves', 'budget_cuts'])
      .where(firmCheck('firm_id'), '=', firmId)
      .where('batch_id', '=', batchId);
    if (page.householdId !== undefined) query = query.where('client_id', '=', page.householdId);
    if (page.skip > 0) query = query.where('client_id', '>=', ofBatch().select('s.client_id').orderBy('s.client_id').limit(1).offset(page.skip));
    const rows = await query.orderBy('client_id').limit(page.top).execute();
    return withTotal(rows, page, async () => Number((await ofBatch().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n));
  }

  /** Every account of the registrations of the named accounts, in slices as householdsOf. */
  async registrationMembers(firmId: number, accountIds: number[]) {
    const byId = new Map<number, { id: number; registration_id: number }>();
    for (const slice of idChunks(this.db, accountIds)) {
      const rows = await this.db
        .selectFrom('accounts as a')
        .innerJoin('accounts as k', 'k.registration_id', 'a.registration_id')
        .select(['a.id', 'a.registration_id'])
        .distinct()
        .where('k.firm_id', '=', firmId)
        .where('k.id', 'in', slice)
        .execute();
      for (const row of rows) byId.set(row.id, row);
    }
    return [...byId.values()].sort((a, b) => a.registration_id - b.registration_id || a.id - b.id);
  }

  // --- quick trades

  accountsByIds(firmId: number, ids: number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('accounts').select(['id', 'number', 'cash_cents']).where('firm_id', '=', firmId).where('id', 'in', ids).execute();
  }

  productsOf(firmId: number, by: { tickers?: string[]; ids?: number[] }) {
    let query = this.db.selectFrom('products').select(['id', 'ticker', 'type', 'price_micros', 'allows_fractional']).where('firm_id', '=', firmId);
    if (by.tickers) query = query.where('ticker', 'in', by.tickers.length ? by.tickers : ['']);
    if (by.ids) query = query.where('id', 'in', by.ids.length ? by.ids : [0]);
    return query.execute();
  }

  heldShares(firmId: number, accountIds: number[]) {
    if (accountIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('positions').select(['account_id', 'product_id', 'shares_micros']).where('firm_id', '=', firmId).where('account_id', 'in', accountIds).execute();
  }

  // --- trade instances

  /** Trade instances of a firm with their batch and how many trades they hold. */
  private instanceRows(firmId: number) {
    return this.db
      .selectFrom('trade_instances as i')
      .leftJoin('batches as b', 'b.trade_instance_id', 'i.id')
      .select(['i.id', 'i.routine', 'i.notes', 'i.status', 'i.created_at', 'i.created_by', 'i.cancelled_at', 'i.cancelled_by', 'i.trade_count', 'b.id as batch_id'])
      .where('i.firm_id', '=', firmId);
  }

  instances(firmId: number, top: number, skip: number) {
    return this.instanceRows(firmId).orderBy('i.id', 'desc').limit(top).offset(skip).execute();
  }

  async instanceCount(firmId: number): Promise<number> {
    const row = await this.db.selectFrom('trade_instances').select((eb) => eb.fn.countAll<number>().as('n')).where('firm_id', '=', firmId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  instance(firmId: number, id: number) {
    return this.instanceRows(firmId).where('i.id', '=', id).executeTakeFirst();
  }

  /**
   * A page of an instance's trades in id order, optionally of one account. A rebalance of 100,000
   * accounts writes a million trades to one instance, so they are read a page at a time: `$skip`
   * walks only the (trade_instance_id, id) index to the page's first id, as the book's pages do.
   */
  async tradesPage(firmId: number, instanceId: number, page: PageRequest & { accountId?: number }) {
    // One account's trades are found by its index (a few per rebalance it was in); the instance
    // then only filters them. Without an account the instance's index finds them in id order.
    const instanceOf = (column: string) => (page.accountId === undefined ? sql.ref(column) : sql`+${sql.ref(column)}`);
    // Every trade of an instance is of the instance's firm (the page query checks it again), so the
    // walk to a page's first id and the count read the instance's index alone, not the trades.
    const ofInstance = (db: Kysely<Database>) => {
      let query = db.selectFrom('trades as s').where(instanceOf('s.trade_instance_id'), '=', instanceId);
      if (page.accountId !== undefined) query = query.where('s.account_id', '=', page.accountId);
      return query;
    };
    let query = this.db
      .selectFrom('trades as t')
      .innerJoin('accounts as a', 'a.id', 't.account_id')
      .innerJoin('products as p', 'p.id', 't.product_id')
      .select(['t.id', 't.trade_instance_id', 't.account_id', 'a.number as account_number', 't.product_id', 'p.ticker', 't.side', 't.trade_type', 't.shares_micros', 't.amount_cents', 't.price_micros', 't.reason', 't.status', 't.created_at', 't.lots', 't.short_term_gain_cents', 't.long_term_gain_cents'])
      .where(firmCheck('t.firm_id'), '=', firmId)
      .where(instanceOf('t.trade_instance_id'), '=', instanceId);
    if (page.accountId !== undefined) query = query.where('t.account_id', '=', page.accountId);
    if (page.skip > 0) query = query.where('t.id', '>=', ofInstance(this.db).select('s.id').orderBy('s.id').limit(1).offset(page.skip));
    const rows = await query.orderBy('t.id').limit(page.top).execute();
    return withTotal(rows, page, async () => Number((await ofInstance(this.db).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n));
  }

  /**
   * Refreshes PostgreSQL's statistics of `trades` once an instance of at least `atLeast` trades is
   * written. Until autovacuum's next analyze (a minute away, or never when it is off) the planner
   * takes a new instance for a few dozen rows and reads a page of it by sorting all of them: 3.4 s
   * instead of 5 ms for the first page of a million-trade instance among 3,000,000 trades. ANALYZE
   * samples a bounded number of rows whatever the table's size. SQLite plans without statistics.
   */
  async refreshTradeStatistics(instanceId: number, atLeast: number) {
    if (!isPostgres(this.db)) return;
    const instance = await this.db.selectFrom('trade_instances').select('trade_count').where('id', '=', instanceId).executeTakeFirst();
    if (!instance || instance.trade_count < atLeast) return;
    await sql`analyze ${sql.table('trades')}`.execute(this.db);
  }

  /** Withdraws the open trades of an instance; a running batch cannot be cancelled. */
  async cancel(firmId: number, instanceId: number, userName: string, now: string) {
    return this.db.transaction().execute(async (trx) => {
      await trx.updateTable('trades').set({ status: 'Cancelled' }).where('firm_id', '=', firmId).where('trade_instance_id', '=', instanceId).where('status', '=', 'Open').execute();
      await trx.updateTable('trade_instances').set({ status: 'Cancelled', cancelled_at: now, cancelled_by: userName }).where('firm_id', '=', firmId).where('id', '=', instanceId).execute();
    });
  }

  /** Writes a quick-trade instance whole: its trades are stored at once, no batch work remains. */
  async storeQuickTrades(input: { firmId: number; userId: number; userName: string; notes: string | null; request: string; trades: NewTrade[]; now: string }) {
    return this.db.transaction().execute(async (trx) => {
      const instance = await insertInstance(trx, 'QuickTrade', input);
      const accounts = new Set(input.trades.map((t) => t.accountId)).size;
      const batch = await trx
        .insertInto('batches')
        .values({ firm_id: input.firmId, trade_instance_id: instance.id, status: 'Complete', message: '', total_items: accounts, items_completed: accounts, chunks_total: 0, created_at: input.now, created_by: input.userName, created_by_user_id: input.userId, completed_at: input.now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await insertTrades(trx, input.firmId, instance.id, input.trades, input.now);
      await countTrades(trx, instance.id, input.trades.length);
      return { instanceId: instance.id, batchId: batch.id };
    });
  }
}
