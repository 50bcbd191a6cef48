import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { PerformanceRepository } from './repository.js';
import { PerformanceService } from './service.js';
import { DailyValuationJob, ValuationService } from './valuation.js';

export { performanceRoutes } from './routes.js';
export { PerformanceService } from './service.js';
export { ValuationService } from './valuation.js';

/** `valuationMinute`: minute of the UTC day after which the server values the day; null: no daily job. */
export function createPerformanceServices(db: Kysely<Database>, clock: Clock, valuationMinute: number | null) {
  const repository = new PerformanceRepository(db);
  const valuation = new ValuationService(repository, clock);
  return {
    performance: new PerformanceService(repository),
    valuation,
    dailyValuation: new DailyValuationJob(valuation, clock, valuationMinute),
  };
}
