import { databaseUnavailable } from '../db/errors.js';
import type { Clock } from '../shared/clock.js';
import { type Logger, stderrLogger } from '../shared/logger.js';
import type { BatchRepository } from './batch-repository.js';
import type { BatchRunner } from './runner.js';

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

/**
 * SQLite's queue: chunks run one at a time in this process, between requests. On start it
 * resumes the chunks of batches that were running when the process stopped. A chunk that keeps
 * failing ends its batch Failed rather than leaving it running forever.
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
    while (this.pending.length > 0 && !this.stopped) {
      const chunkId = this.pending.shift()!;
      try {
        await this.runner.runChunk(chunkId);
      } catch (error) {
        await this.retryOrFail(chunkId, error);
      }
      // Let requests in between chunks: the queue shares the process with the API.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  private async retryOrFail(chunkId: number, error: unknown) {
    if ((await afterChunkFailure(this.repository, this.clock, this.log, chunkId, error)) === 'retry') this.pending.push(chunkId);
  }
}
