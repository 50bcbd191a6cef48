import { type Kysely, sql } from 'kysely';
import { bulkWrite } from '../db/bulk-insert.js';
import { copyWrite } from '../db/copy-rows.js';
import { isPostgres } from '../db/dialect.js';
import { firmCheck } from '../db/firm-check.js';
import { type PageRequest, withTotal } from '../db/paging.js';
import type { Database } from '../db/schema.js';
import type { LotSelection } from '../engine/index.js';
import { countTrades, INSERT_ROWS, insertInstance, insertTrades, messageWrite, type NewMessage, type NewTaxSummary, type NewTransfer, taxSummaryWrite, type TradeRow, transferWrite } from './trade-writes-repository.js';

export type { NewMessage, NewTaxSummary, NewTrade, NewTransfer } from './trade-writes-repository.js';

export const EMPTY_SELECTION = 'The selection holds no accounts: there is nothing to rebalance.';

/** Runs inside the transaction that ends a batch: what it writes commits with the status or not at all. */
export type BatchEndedHook = (trx: Kysely<Database>, batchId: number, now: string) => Promise<void>;

/** Rebalance batches: their instance, chunks, progress, messages and tax summaries, written and read. */
export class BatchRepository {
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
    trades: TradeRow[],
    messages: NewMessage[],
    now: string,
    transfers: NewTransfer[] = [],
    taxSummaries: NewTaxSummary[] = [],
  ) {
    return this.db.transaction().execute(async (trx) => {
      const claimed = await trx.updateTable('batch_chunks').set({ done_at: now }).where('id', '=', chunk.id).where('done_at', 'is', null).executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return { wrote: false as const };
      await insertTrades(trx, chunk.firmId, chunk.instanceId, trades, now);
      await copyWrite(trx, messageWrite(chunk, messages, now));
      await bulkWrite(trx, transferWrite(chunk, transfers, now));
      await copyWrite(trx, taxSummaryWrite(chunk, taxSummaries));
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

  /**
   * Refreshes PostgreSQL's statistics of `trades` once an instance of at least `atLeast` trades is
   * written. Until autovacuum's next analyze (a minute away, or never when it is off) the planner
   * takes a new instance for a few dozen rows and reads a page of it by sorting all of them, which
   * for a large instance turns a read of milliseconds into one of seconds. ANALYZE
   * samples a bounded number of rows whatever the table's size. SQLite plans without statistics.
   */
  async refreshTradeStatistics(instanceId: number, atLeast: number) {
    if (!isPostgres(this.db)) return;
    const instance = await this.db.selectFrom('trade_instances').select('trade_count').where('id', '=', instanceId).executeTakeFirst();
    if (!instance || instance.trade_count < atLeast) return;
    await sql`analyze ${sql.table('trades')}`.execute(this.db);
  }
}
