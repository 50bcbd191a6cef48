import type { AppConfig } from './config.js';
import type { Db } from './db/database.js';
import { AuthRepository } from './auth/repository.js';
import { revocationsFor } from './auth/revocations.js';
import { OAuthService } from './auth/oauth-service.js';
import { AuthService } from './auth/service.js';
import { UserAdminService } from './auth/users.js';
import { BasicLoginSettings } from './auth/basic-login-setting.js';
import { SignInThrottle } from './auth/throttle.js';
import { VERBOSE_ENTITIES, accounts, clients, registrations, type EntityDescriptor } from './book/entities.js';
import { PortfolioCompatRepository } from './book/compat/repository.js';
import { TaxRepository } from './book/tax/repository.js';
import { TaxService } from './book/tax/service.js';
import { PortfolioCompatService } from './book/compat/service.js';
import { HoldingsService } from './book/holdings-service.js';
import { BookRepository } from './book/repository.js';
import { VerboseService } from './book/service.js';
import { OutboxDispatcher } from './outbox/dispatcher.js';
import { OutboxRepository } from './outbox/repository.js';
import { createTradeBlockServices } from './trade-blocks/index.js';
import { createRebalancerTradeBlocks } from './rebalancer/trade-block-details/index.js';
import { createTradingServices } from './trading/index.js';
import { createRiskProfilingServices } from './integrations/risk-partner/index.js';
import { createNotificationServices, PUSH_DEFAULTS } from './notifications/index.js';
import { createCustomFieldServices } from './book/custom-fields/index.js';
import { createRepresentativeServices } from './book/representatives/index.js';
import { createSleeveServices } from './book/sleeves/index.js';
import type { Clock } from './shared/clock.js';
import { createPerformanceServices } from './performance/index.js';

/** Everything the routes need, wired once per app; tests swap the clock. */
export function createServices(config: AppConfig, db: Db, clock: Clock) {
  const book = new BookRepository(db.kysely);
  const outbox = new OutboxDispatcher(new OutboxRepository(db.kysely), clock);
  const revocations = revocationsFor(db, config.database);
  const authRepository = new AuthRepository(db.kysely, revocations);
  const throttle = new SignInThrottle(authRepository, clock, config.signInMaxFailures, config.signInLockSeconds);
  const auth = new AuthService(authRepository, clock, config.accessTokenTtlSeconds, throttle, revocations.cache);
  const customFields = createCustomFieldServices(db.kysely, clock);
  const tradeBlockServices = createTradeBlockServices(db.kysely, clock, outbox);
  const verbose = VERBOSE_ENTITIES.map((entity) => ({ entity, service: new VerboseService(book, entity, clock, customFields.customFieldValues) }));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const verboseOf = (entity: EntityDescriptor<any, any>) => verbose.find((v) => v.entity === entity)!.service;
  return {
    db,
    clock,
    auth,
    authRepository,
    revocations,
    oauth: new OAuthService(
      authRepository,
      auth,
      throttle,
      clock,
      config.authorizationCodeTtlSeconds,
      config.refreshGraceSeconds,
      `${config.platformPrefix === '/' ? '' : config.platformPrefix}/v1/security/token`,
    ),
    users: new UserAdminService(authRepository, clock),
    basicLogin: new BasicLoginSettings(authRepository),
    verbose,
    tax: new TaxService(new TaxRepository(db.kysely), clock),
    portfolioCompat: new PortfolioCompatService(
      new PortfolioCompatRepository(db.kysely),
      { clients: verboseOf(clients), registrations: verboseOf(registrations), accounts: verboseOf(accounts) },
      customFields.customFieldDefinitions,
      authRepository,
    ),
    ...customFields,
    ...createRepresentativeServices(db.kysely),
    holdings: new HoldingsService(book),
    outbox,
    ...tradeBlockServices,
    rebalancerTradeBlocks: createRebalancerTradeBlocks(db.kysely, clock, outbox),
    ...createTradingServices(config, db, clock),
    ...createRiskProfilingServices(config.riskPartner, db.kysely, clock),
    ...createNotificationServices(db, clock, auth, { publicUrl: config.publicUrl, platformPrefix: config.platformPrefix, rebalancerPrefix: config.rebalancerPrefix }, { ...PUSH_DEFAULTS, allowPrivateNetworks: config.pushAllowPrivateNetworks }),
    ...createSleeveServices(db.kysely, clock, tradeBlockServices.tradeBlocks),
    ...createPerformanceServices(db.kysely, clock, config.valuationMinute ?? null),
  };
}

export type Services = ReturnType<typeof createServices>;
