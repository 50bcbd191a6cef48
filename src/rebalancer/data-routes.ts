import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { RebalancerAccountRepository } from './accounts/repository.js';
import { rebalancerAccountRoutes } from './accounts/routes.js';
import { RebalancerAccountService } from './accounts/service.js';
import { FirmOptionsRepository } from './firm-options/repository.js';
import { firmOptionRoutes } from './firm-options/routes.js';
import { FirmOptionsService } from './firm-options/service.js';
import { GroupRepository } from './groups/repository.js';
import { groupRoutes } from './groups/routes.js';
import { GroupService } from './groups/service.js';
import { ModelSecurityService } from './models/securities-service.js';
import { ModelRepository } from './models/repository.js';
import { modelRoutes } from './models/routes.js';
import { ModelService } from './models/service.js';
import { RestrictedPlanRepository } from './restricted-plans/repository.js';
import { restrictedPlanRoutes } from './restricted-plans/routes.js';
import { RestrictedPlanService } from './restricted-plans/service.js';
import { CashNeedsService } from '../set-aside-cash/cash-needs.js';
import { CashNeedsRepository, SetAsideRepository } from '../set-aside-cash/repository.js';
import { setAsideRoutes } from './set-aside-cash/routes.js';
import { SetAsideService } from '../set-aside-cash/service.js';
import { SubstitutionRepository } from '../substitutions/repository.js';
import { SubstitutionService } from '../substitutions/service.js';
import { substitutionRoutes } from './substitutions/routes.js';

/** The rebalancing application's data: restricted plans, set aside cash, models and teams, the account reads,
 * trade groups and aggregate models, model security priorities and the firm options. */
export const rebalancerDataRoutes: FastifyPluginAsync<{ db: Kysely<Database>; clock: Clock }> = async (app, { db, clock }) => {
  const plans = new RestrictedPlanService(new RestrictedPlanRepository(db), clock);
  const models = new ModelService(new ModelRepository(db), clock);
  await app.register(restrictedPlanRoutes, { plans });
  await app.register(setAsideRoutes, {
    setAsides: new SetAsideService(new SetAsideRepository(db), clock),
    cashNeeds: new CashNeedsService(new CashNeedsRepository(db), clock),
  });
  await app.register(modelRoutes, { models, securities: new ModelSecurityService(new ModelRepository(db), models, clock) });
  await app.register(groupRoutes, { groups: new GroupService(new GroupRepository(db)) });
  await app.register(firmOptionRoutes, { options: new FirmOptionsService(new FirmOptionsRepository(db)) });
  const accounts = new RebalancerAccountService(new RebalancerAccountRepository(db), clock, (principal, modelId) => models.assertVisible(principal, modelId));
  await app.register(rebalancerAccountRoutes, { accounts, plans });
  await app.register(substitutionRoutes, { substitutions: new SubstitutionService(new SubstitutionRepository(db)) });
};
