import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../shared/clock.js';
import type { TradeBlockService } from '../../trade-blocks/service.js';
import { SleeveDoNotTrade } from './do-not-trade.js';
import { SleeveRepository } from './repository.js';
import { SleeveService } from './service.js';

/** The sleeve service; its do-not-trade writes go through the trade block service (events, history). */
export function createSleeveServices(db: Kysely<Database>, clock: Clock, tradeBlocks: TradeBlockService) {
  return { sleeves: new SleeveService(new SleeveRepository(db), new SleeveDoNotTrade(tradeBlocks), clock) };
}
