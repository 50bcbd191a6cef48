import type { AppConfig } from './config.js';
import type { Db } from './db/database.js';
import { AuthRepository } from './auth/repository.js';
import { revocationsFor } from './auth/revocations.js';
import { dataChangesFor } from './db/data-changes.js';
import { OAuthService } from './auth/oauth-service.js';
import { AuthService } from './auth/service.js';
import { UserAdminService } from './auth/users.js';
import { BasicLoginSettings } from './auth/basic-login-setting.js';
import { SignInThrottle } from './auth/throttle.js';
import { VERBOSE_ENTITIES, accounts, clients, registrations, type EntityDescriptor } from './book/entities.js';
import { PortfolioHierarchyRepository } from './book/hierarchy/repository.js';
import { TaxRepository } from './book/tax/repository.js';
import { TaxService } from './book/tax/service.js';
import { PortfolioHierarchyService } from './book/hierarchy/service.js';
import { HoldingsService } from './book/holdings-service.js';
import { BookRepository } from './book/repository.js';
import { VerboseService } from './book/service.js';
import { OutboxDispatcher } from './outbox/dispatcher.js';
import { OutboxRepository } from './outbox/repository.js';
import { LegacyAccountService } from './trade-blocks/legacy.js';
import { TradeBlockReasonService } from './trade-blocks/reasons.js';
import { TradeBlockService } from './trade-blocks/service.js';
import { TRADE_BLOCK_SYNC_TOPIC } from './trade-blocks/records.js';
import { RebalancerTradeBlockRepository } from './rebalancer/trade-block-details/repository.js';
import { RebalancerTradeBlockService } from './rebalancer/trade-block-details/service.js';
import { BuiltinRiskPartner } from './integrations/risk-partner/builtin.js';
import { HttpRiskPartner } from './integrations/risk-partner/http-partner.js';
import type { RiskPartner } from './integrations/risk-partner/partner.js';
import { QuestionnaireService } from './integrations/risk-partner/questionnaire-service.js';
import { RiskRepository } from './integrations/risk-partner/repository.js';
import { RiskProfilingService } from './integrations/risk-partner/service.js';
import { CustomFieldsRepository } from './book/custom-fields/repository.js';
import { CustomFieldDefinitions } from './book/custom-fields/service.js';
import { CustomFieldValues } from './book/custom-fields/values.js';
import { RepresentativesRepository } from './book/representatives/repository.js';
import { RepresentativesService } from './book/representatives/service.js';
import { SleeveDoNotTrade } from './book/sleeves/do-not-trade.js';
import { SleeveRepository } from './book/sleeves/repository.js';
import { SleeveService } from './book/sleeves/service.js';
import type { Clock } from './shared/clock.js';
import { PerformanceRepository } from './performance/repository.js';
import { PerformanceService } from './performance/service.js';
import { DailyValuationJob, ValuationService } from './performance/valuation.js';
import { PgBossQueue } from './trading/pg-queue.js';
import { InProcessQueue, type JobQueue } from './trading/queue.js';
import { QuickTradeService } from './trading/quick-trades.js';
import { BatchRepository } from './trading/batch-repository.js';
import { TradeInstanceRepository } from './trading/instance-repository.js';
import { QuickTradeRepository } from './trading/quick-trade-repository.js';
import { SelectionRepository } from './trading/selection-repository.js';
import { BatchRunner, InlinePlanner } from './trading/runner.js';
import { TradingService } from './trading/service.js';
import { BatchWatchdog } from './trading/watchdog.js';
import { ExecutionRepository } from './trading/execution-repository.js';
import { ExecutionService } from './trading/execution.js';
import { SnapshotRepository } from './trading/snapshot-repository.js';
import { ThreadPlanner } from './trading/thread-planner.js';
import { TradeBlockRepository } from './trade-blocks/repository.js';
import { recordBatchEnded, SetAsideExpiryRepository } from './notifications/platform-events-repository.js';
import { PUSH_DEFAULTS, PushSender } from './notifications/push.js';
import { NotificationRepository, PUSH_TOPIC } from './notifications/repository.js';
import { NotificationService } from './notifications/service.js';
import { SetAsideExpirySweeper } from './notifications/set-aside-expiry-sweeper.js';
import { TransactionRepository } from './book/transactions/repository.js';
import { TransactionService } from './book/transactions/service.js';
import { RebalancerUserRepository } from './rebalancer/auth/user-repository.js';
import { RebalancerAccountRepository } from './rebalancer/accounts/repository.js';
import { RebalancerAccountService } from './rebalancer/accounts/service.js';
import { FirmOptionsRepository } from './rebalancer/firm-options/repository.js';
import { FirmOptionsService } from './rebalancer/firm-options/service.js';
import { GroupRepository } from './rebalancer/groups/repository.js';
import { GroupService } from './rebalancer/groups/service.js';
import { ModelSecurityService } from './rebalancer/models/securities-service.js';
import { ModelRepository } from './rebalancer/models/repository.js';
import { ModelService } from './rebalancer/models/service.js';
import { RestrictedPlanRepository } from './rebalancer/restricted-plans/repository.js';
import { RestrictedPlanService } from './rebalancer/restricted-plans/service.js';
import { EclipseRepository } from './rebalancer/eclipse/repository.js';
import { EclipseService } from './rebalancer/eclipse/service.js';
import { EclipseV2Service } from './rebalancer/eclipse/v2-service.js';
import { CashNeedsService } from './set-aside-cash/cash-needs.js';
import { CashNeedsRepository, SetAsideRepository } from './set-aside-cash/repository.js';
import { SetAsideService } from './set-aside-cash/service.js';
import { SubstitutionRepository } from './substitutions/repository.js';
import { SubstitutionService } from './substitutions/service.js';

/** What a process does besides answering requests: `wealth serve` runs everything, `wealth worker` only rebalance chunks. */
export type ProcessRole = 'server' | 'worker';

/**
 * Every service and repository of a process, made here and nowhere else; routes and background
 * work receive what they need from it. Tests swap the clock.
 */
export function createServices(config: AppConfig, db: Db, clock: Clock, role: ProcessRole = 'server') {
  const book = new BookRepository(db.kysely);
  const outbox = new OutboxDispatcher(new OutboxRepository(db.kysely), clock);
  const revocations = revocationsFor(db, config.database);
  const authRepository = new AuthRepository(db.kysely, revocations);
  const throttle = new SignInThrottle(authRepository, clock, config.signInMaxFailures, config.signInLockSeconds);
  const auth = new AuthService(authRepository, clock, config.accessTokenTtlSeconds, throttle, revocations.cache);
  // Custom field values are handed to every verbose entity: they are read and written with the records.
  const customFieldValues = new CustomFieldValues(clock);
  const customFieldDefinitions = new CustomFieldDefinitions(new CustomFieldsRepository(db.kysely), clock);
  // Trade block writes wake the outbox after commit; sleeves' do-not-trade writes go through the same service (events, history).
  const tradeBlocks = new TradeBlockService(new TradeBlockRepository(db.kysely), clock, { afterCommit: () => outbox.kick() });
  const tradeBlockReasons = new TradeBlockReasonService(tradeBlocks);
  const links = { publicUrl: config.publicUrl, platformPrefix: config.platformPrefix, rebalancerPrefix: config.rebalancerPrefix };
  const push = { ...PUSH_DEFAULTS, allowPrivateNetworks: config.pushAllowPrivateNetworks };
  const notificationRepository = new NotificationRepository(db.kysely);
  // Push deliveries have a dispatcher of their own: a slow partner endpoint holds up other pushes at worst, never trade block sync.
  const pushOutbox = new OutboxDispatcher(new OutboxRepository(db.kysely), clock, { batchSize: 20 });
  const pushSender = new PushSender(notificationRepository, clock, links, push);
  pushOutbox.register(PUSH_TOPIC, (message) => pushSender.handle(message));
  const wakePush = () => pushOutbox.kick();
  // The user who started a rebalance is notified in the transaction that ends it.
  const batchRepository = new BatchRepository(db.kysely, recordBatchEnded);
  const tradeBlockRepository = new TradeBlockRepository(db.kysely);
  // SQLite plans its chunks in a thread while the next is read; a PostgreSQL worker plans inline and runs chunks side by side instead.
  const planner = config.database.dialect === 'sqlite' ? new ThreadPlanner() : new InlinePlanner();
  const runner = new BatchRunner(batchRepository, new SnapshotRepository(db.kysely, tradeBlockRepository), clock, planner);
  // SQLite runs chunks in this process; PostgreSQL hands them to pg-boss, shared by every `wealth worker` (and `wealth serve` unless WORKER_IN_SERVER=false).
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
          batchRepository,
          clock,
        )
      : new InProcessQueue(runner, batchRepository, clock);
  const modelRepository = new ModelRepository(db.kysely);
  const models = new ModelService(modelRepository, clock);
  const rebalancerAccounts = new RebalancerAccountService(new RebalancerAccountRepository(db.kysely), clock, (principal, modelId) => models.assertVisible(principal, modelId));
  const eclipse = new EclipseService(new EclipseRepository(db.kysely), rebalancerAccounts, models, clock);
  // The rebalancer's copy of trade blocks, subscribed to the platform's trade block sync events.
  const rebalancerTradeBlocks = new RebalancerTradeBlockService(new RebalancerTradeBlockRepository(db.kysely), clock);
  outbox.register(TRADE_BLOCK_SYNC_TOPIC, (message) => rebalancerTradeBlocks.applySyncEvent(message));
  // The configured partner behind section 4.11; the built-in partner also serves the questionnaire page.
  const riskRepository = new RiskRepository(db.kysely);
  const riskPartner: RiskPartner =
    config.riskPartner.kind === 'http' ? new HttpRiskPartner(config.riskPartner, riskRepository, clock) : new BuiltinRiskPartner(riskRepository, clock);
  const performanceRepository = new PerformanceRepository(db.kysely);
  const valuation = new ValuationService(performanceRepository, clock);
  const verbose = VERBOSE_ENTITIES.map((entity) => ({ entity, service: new VerboseService(book, entity, clock, customFieldValues) }));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const verboseOf = (entity: EntityDescriptor<any, any>) => verbose.find((v) => v.entity === entity)!.service;
  return {
    db,
    clock,
    auth,
    authRepository,
    revocations,
    /** Whether the data changed since a read: the response cache's stamp (src/http/response-cache.ts). */
    dataChanges: dataChangesFor(db, config.database),
    oauth: new OAuthService(
      authRepository,
      auth,
      clock,
      config.authorizationCodeTtlSeconds,
      config.refreshGraceSeconds,
      `${config.platformPrefix === '/' ? '' : config.platformPrefix}/v1/security/token`,
    ),
    users: new UserAdminService(authRepository, clock),
    basicLogin: new BasicLoginSettings(authRepository),
    verbose,
    tax: new TaxService(new TaxRepository(db.kysely), clock),
    portfolioHierarchy: new PortfolioHierarchyService(
      new PortfolioHierarchyRepository(db.kysely),
      { clients: verboseOf(clients), registrations: verboseOf(registrations), accounts: verboseOf(accounts) },
      customFieldDefinitions,
      authRepository,
    ),
    customFieldDefinitions,
    customFieldValues,
    representatives: new RepresentativesService(new RepresentativesRepository(db.kysely)),
    holdings: new HoldingsService(book),
    outbox,
    tradeBlocks,
    tradeBlockReasons,
    tradeBlockLegacy: new LegacyAccountService(tradeBlocks),
    rebalancerTradeBlocks,
    queue,
    runner,
    trading: new TradingService(batchRepository, new SelectionRepository(db.kysely), new TradeInstanceRepository(db.kysely), queue, clock, config.rebalanceChunkSize, config.rebalanceWaitSeconds * 1000),
    watchdog: new BatchWatchdog(batchRepository, clock, config.batchStallSeconds),
    quickTrades: new QuickTradeService(new QuickTradeRepository(db.kysely), tradeBlockRepository, clock),
    execution: new ExecutionService(new ExecutionRepository(db.kysely), clock),
    riskProfiling: new RiskProfilingService(riskPartner, riskRepository),
    riskQuestionnaire: new QuestionnaireService(riskRepository, clock),
    notifications: new NotificationService(notificationRepository, auth, clock, links, wakePush, { allowPrivate: push.allowPrivateNetworks }),
    pushOutbox,
    setAsideSweeper: new SetAsideExpirySweeper(new SetAsideExpiryRepository(db.kysely), clock, wakePush),
    sleeves: new SleeveService(new SleeveRepository(db.kysely), new SleeveDoNotTrade(tradeBlocks), clock),
    performance: new PerformanceService(performanceRepository),
    valuation,
    // Minute of the UTC day after which the server values the day; null: no daily job.
    dailyValuation: new DailyValuationJob(valuation, clock, config.valuationMinute ?? null),
    transactions: new TransactionService(new TransactionRepository(db.kysely), clock),
    rebalancerUsers: new RebalancerUserRepository(db.kysely),
    restrictedPlans: new RestrictedPlanService(new RestrictedPlanRepository(db.kysely), clock),
    setAsides: new SetAsideService(new SetAsideRepository(db.kysely), clock),
    cashNeeds: new CashNeedsService(new CashNeedsRepository(db.kysely), clock),
    models,
    modelSecurities: new ModelSecurityService(modelRepository, models, clock),
    groups: new GroupService(new GroupRepository(db.kysely)),
    firmOptions: new FirmOptionsService(new FirmOptionsRepository(db.kysely)),
    rebalancerAccounts,
    substitutions: new SubstitutionService(new SubstitutionRepository(db.kysely)),
    eclipse,
    eclipseV2: new EclipseV2Service(eclipse, tradeBlocks, tradeBlockReasons, rebalancerTradeBlocks),
  };
}

export type Services = ReturnType<typeof createServices>;
