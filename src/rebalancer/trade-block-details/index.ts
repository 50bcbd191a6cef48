import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { OutboxDispatcher } from '../../outbox/dispatcher.js';
import { TRADE_BLOCK_SYNC_TOPIC } from '../../trade-blocks/records.js';
import type { Clock } from '../../shared/clock.js';
import { RebalancerTradeBlockRepository } from './repository.js';
import { RebalancerTradeBlockService } from './service.js';

/** The rebalancer's copy, subscribed to the platform's trade block sync events. */
export function createRebalancerTradeBlocks(db: Kysely<Database>, clock: Clock, outbox: OutboxDispatcher) {
  const service = new RebalancerTradeBlockService(new RebalancerTradeBlockRepository(db), clock);
  outbox.register(TRADE_BLOCK_SYNC_TOPIC, (message) => service.applySyncEvent(message));
  return service;
}
