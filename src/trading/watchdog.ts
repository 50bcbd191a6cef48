import type { Clock } from '../shared/clock.js';
import { type Logger, stderrLogger } from '../shared/logger.js';
import { PeriodicJob } from '../shared/periodic.js';
import type { BatchRepository } from './batch-repository.js';

/**
 * Ends batches that stopped making progress. Chunks are retried when a worker dies or the
 * database drops, but a batch whose workers are all gone (WORKER_IN_SERVER=false and no `wealth
 * worker` running) or whose chunks keep timing out would otherwise stay Running for ever, and a
 * firm could not tell whether to wait. Every process may sweep: failing a batch is conditional on
 * it still running, so two sweepers fail it once.
 */
export class BatchWatchdog {
  private job: PeriodicJob | undefined;
  /** Set by the app when it starts background work (src/background.ts). */
  log: Logger = stderrLogger;

  constructor(
    private readonly repository: BatchRepository,
    private readonly clock: Clock,
    private readonly stallSeconds: number,
  ) {}

  /** Fails every running batch without progress for `stallSeconds`; returns their ids. */
  async sweep(): Promise<number[]> {
    const now = this.clock.now();
    const before = new Date(now.getTime() - this.stallSeconds * 1000).toISOString();
    const stalled = await this.repository.stalledBatches(before);
    for (const batch of stalled) {
      const message =
        `No progress for ${this.stallSeconds} s (${batch.chunks_done} of ${batch.chunks_total} parts done): ` +
        'no worker finished a part in that time. Check that workers are running and can reach the database; ' +
        'the accounts can be rebalanced again.';
      await this.repository.failBatch(batch.id, message, now.toISOString());
      this.log.error({ batchId: batch.id, chunksDone: batch.chunks_done, chunksTotal: batch.chunks_total }, 'rebalance batch stalled and was failed');
    }
    return stalled.map((b) => b.id);
  }

  start(intervalMs = Math.min(60_000, (this.stallSeconds * 1000) / 4)) {
    this.job ??= new PeriodicJob(() => this.sweep(), {
      intervalMs,
      onError: (error) => this.log.warn({ err: error }, 'stalled-batch sweep failed; it runs again shortly'),
    });
    this.job.start();
  }

  async stop() {
    await this.job?.stop();
  }
}
