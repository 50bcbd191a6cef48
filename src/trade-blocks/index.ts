import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import type { OutboxDispatcher } from '../outbox/dispatcher.js';
import { LegacyAccountService } from './legacy.js';
import { TradeBlockReasonService } from './reasons.js';
import { TradeBlockRepository } from './repository.js';
import { TradeBlockService } from './service.js';

/** The trade block services, wired once per app; writes wake the outbox after commit. */
export function createTradeBlockServices(db: Kysely<Database>, clock: Clock, outbox: OutboxDispatcher) {
  const tradeBlocks = new TradeBlockService(new TradeBlockRepository(db), clock, { afterCommit: () => outbox.kick() });
  return {
    tradeBlocks,
    tradeBlockReasons: new TradeBlockReasonService(tradeBlocks),
    tradeBlockLegacy: new LegacyAccountService(tradeBlocks),
  };
}
