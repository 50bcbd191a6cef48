import type { AppConfig } from './config.js';
import type { Db } from './db/database.js';
import { AuthRepository } from './platform/auth/repository.js';
import { OAuthService } from './platform/auth/oauth-service.js';
import { AuthService } from './platform/auth/service.js';
import { UserAdminService } from './platform/auth/users.js';
import { SignInThrottle } from './platform/auth/throttle.js';
import { VERBOSE_ENTITIES } from './platform/book/entities.js';
import { HoldingsService } from './platform/book/holdings-service.js';
import { BookRepository } from './platform/book/repository.js';
import { VerboseService } from './platform/book/service.js';
import { OutboxDispatcher } from './platform/outbox/dispatcher.js';
import { OutboxRepository } from './platform/outbox/repository.js';
import { createTradeBlockServices } from './platform/trade-blocks/index.js';
import { createRebalancerTradeBlocks } from './rebalancer/trade-block-details/index.js';
import { createTradingServices } from './platform/trading/index.js';
import { createRiskProfilingServices } from './platform/integrations/risk-partner/index.js';
import { createNotificationServices } from './platform/notifications/index.js';
import { createCustomFieldServices } from './platform/custom-fields/index.js';
import { createRepresentativeServices } from './platform/representatives/index.js';
import { createSleeveServices } from './platform/sleeves/index.js';
import type { Clock } from './shared/clock.js';

/** Everything the routes need, wired once per app; tests swap the clock. */
export function createServices(config: AppConfig, db: Db, clock: Clock) {
  const book = new BookRepository(db.kysely);
  const outbox = new OutboxDispatcher(new OutboxRepository(db.kysely), clock);
  const authRepository = new AuthRepository(db.kysely);
  const throttle = new SignInThrottle(authRepository, clock, config.signInMaxFailures, config.signInLockSeconds);
  const auth = new AuthService(authRepository, clock, config.accessTokenTtlSeconds, throttle);
  const customFields = createCustomFieldServices(db.kysely, clock);
  const tradeBlockServices = createTradeBlockServices(db.kysely, clock, outbox);
  return {
    db,
    clock,
    auth,
    oauth: new OAuthService(authRepository, auth, throttle, clock, config.authorizationCodeTtlSeconds, config.refreshGraceSeconds),
    users: new UserAdminService(authRepository, clock),
    verbose: VERBOSE_ENTITIES.map((entity) => ({ entity, service: new VerboseService(book, entity, clock, customFields.customFieldValues) })),
    ...customFields,
    ...createRepresentativeServices(db.kysely),
    holdings: new HoldingsService(book),
    outbox,
    ...tradeBlockServices,
    rebalancerTradeBlocks: createRebalancerTradeBlocks(db.kysely, clock, outbox),
    ...createTradingServices(config, db, clock),
    ...createRiskProfilingServices(config.riskPartner, db.kysely, clock),
    ...createNotificationServices(db, clock, auth, { publicUrl: config.publicUrl, platformPrefix: config.platformPrefix, rebalancerPrefix: config.rebalancerPrefix }),
    ...createSleeveServices(db.kysely, clock, tradeBlockServices.tradeBlocks),
  };
}

export type Services = ReturnType<typeof createServices>;
