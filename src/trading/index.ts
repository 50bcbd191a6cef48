import type { AppConfig } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../shared/clock.js';
import { recordBatchEnded } from '../notifications/index.js';
import { TradeBlockRepository } from '../trade-blocks/repository.js';
import { PgBossQueue } from './pg-queue.js';
import { InProcessQueue, type JobQueue } from './queue.js';
import { QuickTradeService } from './quick-trades.js';
import { TradingRepository } from './repository.js';
import { BatchRunner } from './runner.js';
import { TradingService } from './service.js';
import { BatchWatchdog } from './watchdog.js';
import { ExecutionRepository } from './execution-repository.js';
import { ExecutionService } from './execution.js';
import { SnapshotRepository } from './snapshot-repository.js';

/**
 * SQLite runs chunks in this process; PostgreSQL hands them to pg-boss so that `wealth worker`
 * processes share them (and `wealth serve` works too unless WORKER_IN_SERVER=false).
 */
export function createTradingServices(config: AppConfig, db: Db, clock: Clock, role: 'server' | 'worker' = 'server') {
  // The user who started a rebalance is notified in the transaction that ends it (notifications).
  const repository = new TradingRepository(db.kysely, recordBatchEnded);
  const runner = new BatchRunner(repository, new SnapshotRepository(db.kysely), clock);
  const queue: JobQueue =
    config.database.dialect === 'postgres'
      ? new PgBossQueue(
          {
            connectionString: config.database.url,
            schema: config.jobSchema,
            work: role === 'worker' || config.workerInServer,
            concurrency: config.workerConcurrency,
            chunkTimeoutSeconds: config.chunkTimeoutSeconds,
          },
          runner,
          repository,
          clock,
        )
      : new InProcessQueue(runner, repository, clock);
  return {
    queue,
    runner,
    trading: new TradingService(repository, queue, clock, config.rebalanceChunkSize, config.rebalanceWaitSeconds * 1000),
    watchdog: new BatchWatchdog(repository, clock, config.batchStallSeconds),
    quickTrades: new QuickTradeService(repository, new TradeBlockRepository(db.kysely), clock),
    execution: new ExecutionService(new ExecutionRepository(db.kysely), clock),
  };
}
