import { databaseUnavailable } from '../db/errors.js';
import type { Clock } from '../shared/clock.js';
import { type Logger, stderrLogger } from '../shared/logger.js';
import type { BatchRepository } from './batch-repository.js';
import type { ChunkRows } from './chunk-plan.js';
import type { BatchRunner, PreparedChunk } from './runner.js';

/** Hands chunks of rebalance batches to workers. */
export interface JobQueue {
  enqueue(chunkIds: number[]): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Set by the app when it starts background work (src/background.ts). */
  log: Logger;
}

export const MAX_CHUNK_ATTEMPTS = 3;

/**
 * What both queues do after a chunk threw: log it, then either retry it or, once it has failed
 * MAX_CHUNK_ATTEMPTS times, end its batch Failed with the reason. An outage is not the chunk's
 * fault: it is retried without counting towards the limit. The database may be what failed, so
 * the chunk may be unreadable; each queue decides what that means for it.
 */
export async function afterChunkFailure(
  repository: BatchRepository,
  clock: Clock,
  log: Logger,
  chunkId: number,
  error: unknown,
): Promise<'retry' | 'failed' | 'unreadable'> {
  const chunk = await repository.chunk(chunkId).catch(() => undefined);
  log.error({ err: error, batchId: chunk?.batch_id, chunkId }, 'rebalance chunk failed');
  if (!chunk) return 'unreadable';
  if (chunk.attempts < MAX_CHUNK_ATTEMPTS || databaseUnavailable(error)) return 'retry';
  await repository.failBatch(chunk.batch_id, `A part of the batch failed ${chunk.attempts} times: ${(error as Error).message}`, clock.now().toISOString());
  return 'failed';
}

interface Begun {
  chunkId: number;
  planned: Promise<{ prepared: PreparedChunk; rows: ChunkRows } | undefined>;
}

/**
 * SQLite's queue: chunks run in this process, between requests, each read and written here; with
 * a planner that plans in a thread (thread-planner.ts), the next chunk is read and planned while
 * one is written. On start it resumes the chunks of batches that were running when the process
 * stopped. A chunk that keeps failing ends its batch Failed rather than leaving it running forever.
 */
export class InProcessQueue implements JobQueue {
  private readonly pending: number[] = [];
  private draining: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly runner: BatchRunner,
    private readonly repository: BatchRepository,
    private readonly clock: Clock,
  ) {}

  log: Logger = stderrLogger;

  async enqueue(chunkIds: number[]) {
    this.pending.push(...chunkIds);
    this.kick();
  }

  async start() {
    this.stopped = false;
    const resumable = await this.repository.pendingChunks();
    if (resumable.length > 0) await this.enqueue(resumable.map((c) => c.id));
  }

  async stop() {
    this.stopped = true;
    await this.draining;
    await this.runner.planner.close();
  }

  /** Resolves when every chunk queued so far has run (tests and benchmarks use it). */
  async idle() {
    while (this.draining) await this.draining;
  }

  private kick() {
    if (this.draining || this.stopped) return;
    this.draining = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.drain())
      .finally(() => {
        this.draining = undefined;
        if (this.pending.length > 0 && !this.stopped) this.kick();
      });
  }

  private async drain() {
    let current = this.pending.length > 0 ? this.begin(this.pending.shift()!) : undefined;
    while (current !== undefined) {
      // The next chunk is read now and handed to the planner behind this one: its thread plans it
      // as soon as this one is planned, while this one's rows are written here. The two chunks'
      // accounts are apart (a batch's chunks part its keys; a household or a registration is
      // never split), so what this one writes is nothing the next one reads.
      const next = this.pending.length > 0 && !this.stopped ? this.begin(this.pending.shift()!) : undefined;
      try {
        const planned = await current.planned;
        if (planned) await this.runner.complete(planned.prepared, planned.rows);
      } catch (error) {
        await this.retryOrFail(current.chunkId, error);
      }
      current = next;
      // Let requests in between chunks: the queue shares the process with the API.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.stopped && current !== undefined) {
        // Stopped with a chunk begun: it is still undone, and runs when the queue starts again.
        await current.planned.catch(() => undefined);
        this.pending.unshift(current.chunkId);
        current = undefined;
      }
      if (current === undefined && this.pending.length > 0 && !this.stopped) current = this.begin(this.pending.shift()!);
    }
  }

  /**
   * A chunk read and handed to the planner; its failure is the chunk's, met where it is awaited
   * (never unhandled before).
   */
  private begin(chunkId: number): Begun {
    const planned = this.runner.prepare(chunkId).then(async (prepared) => (prepared ? { prepared, rows: await this.runner.planner.plan(prepared) } : undefined));
    planned.catch(() => undefined);
    return { chunkId, planned };
  }

  private async retryOrFail(chunkId: number, error: unknown) {
    if ((await afterChunkFailure(this.repository, this.clock, this.log, chunkId, error)) === 'retry') this.pending.push(chunkId);
  }
}
