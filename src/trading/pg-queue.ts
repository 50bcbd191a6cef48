import PgBoss from 'pg-boss';
import type { Clock } from '../shared/clock.js';
import { type Logger, stderrLogger } from '../shared/logger.js';
import { afterChunkFailure, type JobQueue, MAX_CHUNK_ATTEMPTS } from './queue.js';
import type { BatchRepository } from './batch-repository.js';
import type { BatchRunner } from './runner.js';
import { JobDatabase } from './job-database.js';

const QUEUE = 'rebalance-chunk';

export interface PgQueueOptions {
  connectionString: string;
  /** pg-boss's own schema. */
  schema: string;
  /** Work chunks in this process (a `wealth worker`, or `wealth serve` with WORKER_IN_SERVER). */
  work: boolean;
  /** Chunks worked at once by this process. */
  concurrency: number;
  /** A chunk running longer is taken to have died with its worker and is retried elsewhere. */
  chunkTimeoutSeconds: number;
}

/**
 * PostgreSQL's queue: chunks are pg-boss jobs, so any number of `wealth worker` processes on any
 * number of nodes share a batch. A worker that dies mid-chunk leaves the job active until it
 * expires; pg-boss then hands it to another worker, and the chunk's done-guard keeps its trades
 * from being written twice. A chunk that failed MAX_CHUNK_ATTEMPTS times ends its batch Failed.
 */
export class PgBossQueue implements JobQueue {
  private boss: PgBoss | undefined;
  private database: JobDatabase | undefined;

  constructor(
    private readonly options: PgQueueOptions,
    private readonly runner: BatchRunner,
    private readonly repository: BatchRepository,
    private readonly clock: Clock,
  ) {}

  log: Logger = stderrLogger;

  async start() {
    const database = new JobDatabase(this.options.connectionString, 4, this.log);
    const boss = new PgBoss({
      db: database,
      schema: this.options.schema,
      // Expired jobs (dead workers) are noticed by maintenance; check often so a batch resumes soon.
      maintenanceIntervalSeconds: Math.max(1, Math.min(30, Math.floor(this.options.chunkTimeoutSeconds / 2))),
      schedule: false,
    });
    // pg-boss reports its own failures (maintenance, a lost connection) as 'error' events; without a
    // listener one would end the process.
    boss.on('error', (error) => this.log.error({ err: error }, 'pg-boss error; it retries by itself'));
    this.database = database;
    try {
      await boss.start();
    } catch (error) {
      await database.close();
      this.database = undefined;
      throw error;
    }
    await boss.createQueue(QUEUE, {
      name: QUEUE,
      // Outages are retried beyond MAX_CHUNK_ATTEMPTS (handle() counts real failures itself), with
      // backoff so that a database restart is waited out rather than raced.
      retryLimit: MAX_CHUNK_ATTEMPTS + 20,
      retryDelay: 1,
      retryBackoff: true,
      expireInSeconds: this.options.chunkTimeoutSeconds,
    });
    this.boss = boss;
    if (this.options.work) {
      for (let i = 0; i < this.options.concurrency; i++) {
        await boss.work<{ chunkId: number }>(QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => this.handle(job!.data.chunkId));
      }
    }
  }

  private async handle(chunkId: number) {
    try {
      await this.runner.runChunk(chunkId);
    } catch (error) {
      // An unreadable chunk (the database away) is retried by pg-boss like any other.
      if ((await afterChunkFailure(this.repository, this.clock, this.log, chunkId, error)) === 'failed') return;
      throw error; // pg-boss retries it
    }
  }

  async enqueue(chunkIds: number[]) {
    if (!this.boss) throw new Error('the job queue is not started');
    for (let i = 0; i < chunkIds.length; i += 1000) {
      await this.boss.insert(chunkIds.slice(i, i + 1000).map((chunkId) => ({ name: QUEUE, data: { chunkId } })));
    }
  }

  async stop() {
    await this.boss?.stop({ graceful: true, wait: true, timeout: 30_000 });
    this.boss = undefined;
    // pg-boss closes only a pool it opened itself.
    await this.database?.close();
    this.database = undefined;
  }
}
