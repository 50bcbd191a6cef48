import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../shared/clock.js';
import { TradeBlockRepository } from '../trade-blocks/repository.js';
import { InProcessQueue } from './queue.js';
import { QuickTradeService } from './quick-trades.js';
import { TradingRepository } from './repository.js';
import { BatchRunner } from './runner.js';
import { TradingService } from './service.js';
import { SnapshotRepository } from './snapshots.js';

export function createTradingServices(db: Kysely<Database>, clock: Clock) {
  const repository = new TradingRepository(db);
  const runner = new BatchRunner(repository, new SnapshotRepository(db), clock);
  const queue = new InProcessQueue(runner, repository, clock);
  return {
    queue,
    runner,
    trading: new TradingService(repository, queue, clock),
    quickTrades: new QuickTradeService(repository, new TradeBlockRepository(db), clock),
  };
}
