import type { Clock } from '../shared/clock.js';
import type { BatchRepository } from './batch-repository.js';
import { type ChunkRows, planChunk } from './chunk-plan.js';
import type { ChunkReads, FirmContext } from './chunk-reads.js';
import { type BatchPlan, planOf, type StoredRequest } from './request.js';
import type { SnapshotRepository } from './snapshot-repository.js';

/** A batch that wrote this many trades refreshes the database's statistics of them (PostgreSQL). */
const ANALYZE_AFTER_TRADES = 10_000;

/**
 * Runs one chunk of a batch: one read of its accounts (`prepare`), the engine for each through the
 * planner (planChunk, here or in SQLite's planning thread), one write of the results (`complete`).
 * A thrown error leaves the chunk undone for a retry; an account the engine cannot handle becomes
 * an Error message of that account only.
 */
export class BatchRunner {
  /** Firm context and parsed request per batch; batches are few at a time, so a small cap is enough. */
  private readonly contexts = new Map<number, Promise<FirmContext>>();
  private readonly plans = new Map<number, BatchPlan>();

  constructor(
    private readonly repository: BatchRepository,
    private readonly snapshots: SnapshotRepository,
    private readonly clock: Clock,
    readonly planner: ChunkPlanner = new InlinePlanner(),
  ) {}

  /** The batch's plan, read and parsed once a process (the request holds every key of the run). */
  private async plan(batchId: number): Promise<BatchPlan> {
    let plan = this.plans.get(batchId);
    if (!plan) {
      const request = JSON.parse(await this.repository.batchRequest(batchId)) as StoredRequest;
      if (this.plans.size >= 16) this.plans.delete(this.plans.keys().next().value!);
      plan = planOf(request);
      this.plans.set(batchId, plan);
    }
    return plan;
  }

  private context(batchId: number, firmId: number, asOfDate: string): Promise<FirmContext> {
    let context = this.contexts.get(batchId);
    if (!context) {
      if (this.contexts.size >= 16) this.contexts.delete(this.contexts.keys().next().value!);
      context = this.snapshots.firmContext(firmId, asOfDate);
      // A failed load must not stick: the retry loads again.
      context.catch(() => this.contexts.delete(batchId));
      this.contexts.set(batchId, context);
    }
    return context;
  }

  /** Runs a chunk start to end: its reads, its plan, its writes. */
  async runChunk(chunkId: number): Promise<void> {
    const prepared = await this.prepare(chunkId);
    if (prepared) await this.complete(prepared, await this.planner.plan(prepared));
  }

  /**
   * A chunk's reads, when it is still to run: counts the attempt, then reads its batch's plan and
   * firm context (once a process) and its accounts. Undefined for a chunk done, or of a batch no
   * longer running.
   */
  async prepare(chunkId: number): Promise<PreparedChunk | undefined> {
    const chunk = await this.repository.chunk(chunkId);
    if (!chunk || chunk.done_at !== null || chunk.batch_status !== 'Running') return undefined;
    await this.repository.countAttempt(chunkId);
    const plan = await this.plan(chunk.batch_id);
    // The business date of the run is the day the batch was created, whatever day a retry runs.
    const context = await this.context(chunk.batch_id, chunk.firm_id, chunk.created_at.slice(0, 10));
    const keys = JSON.parse(chunk.keys) as number[];
    const reads = await this.snapshots.chunkReads(context, keys, plan.request.options?.taxOptions !== undefined);
    return { chunk: { id: chunk.id, firmId: chunk.firm_id, batchId: chunk.batch_id, instanceId: chunk.trade_instance_id }, batchId: chunk.batch_id, plan, context, keys, reads };
  }

  /** Writes a planned chunk's rows and counts it done (its done-guard writes nothing twice). */
  async complete(prepared: PreparedChunk, rows: ChunkRows): Promise<void> {
    const { chunk, keys } = prepared;
    const outcome = await this.repository.completeChunk({ ...chunk, items: keys.length }, rows.trades, rows.messages, this.clock.now().toISOString(), rows.transfers, rows.taxSummaries);
    if (outcome.wrote && outcome.finished) {
      this.contexts.delete(chunk.batchId);
      this.plans.delete(chunk.batchId);
      this.planner.forget(chunk.batchId);
      // The batch is committed; fresh statistics only make the reads of its trades plan well, so
      // a failure here (autovacuum will catch up) must not fail a chunk that is done.
      await this.repository.refreshTradeStatistics(chunk.instanceId, ANALYZE_AFTER_TRADES).catch(() => undefined);
    }
  }
}

/** A chunk read and ready to plan: what the planner needs, and what its write names. */
export interface PreparedChunk extends ChunkWork {
  chunk: { id: number; firmId: number; batchId: number; instanceId: number };
}

/** What a planner takes: the batch's plan and firm context (the same objects for every chunk of a batch), the chunk's keys and reads. */
export interface ChunkWork {
  batchId: number;
  plan: BatchPlan;
  context: FirmContext;
  keys: number[];
  reads: ChunkReads;
}

/** Runs chunks through the engine: here (InlinePlanner), or in a thread (plan-thread.ts). */
export interface ChunkPlanner {
  plan(work: ChunkWork): Promise<ChunkRows>;
  /** The batch ended: what was kept for its chunks can go. */
  forget(batchId: number): void;
  close(): Promise<void>;
}

/** Plans a chunk on the caller's own thread: a PostgreSQL worker runs two chunks at once instead. */
export class InlinePlanner implements ChunkPlanner {
  async plan(work: ChunkWork): Promise<ChunkRows> {
    return planChunk(work.plan, work.context, work.keys, work.reads);
  }

  forget(): void {}

  async close(): Promise<void> {}
}
