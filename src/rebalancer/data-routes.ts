import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../services.js';
import { rebalancerAccountRoutes } from './accounts/routes.js';
import { firmOptionRoutes } from './firm-options/routes.js';
import { groupRoutes } from './groups/routes.js';
import { modelRoutes } from './models/routes.js';
import { restrictedPlanRoutes } from './restricted-plans/routes.js';
import { setAsideRoutes } from './set-aside-cash/routes.js';
import { substitutionRoutes } from './substitutions/routes.js';

/** The rebalancing application's data: restricted plans, set aside cash, models and teams, the account reads,
 * trade groups and aggregate models, model security priorities and the firm options. */
export const rebalancerDataRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  await app.register(restrictedPlanRoutes, { plans: services.restrictedPlans });
  await app.register(setAsideRoutes, { setAsides: services.setAsides, cashNeeds: services.cashNeeds });
  await app.register(modelRoutes, { models: services.models, securities: services.modelSecurities });
  await app.register(groupRoutes, { groups: services.groups });
  await app.register(firmOptionRoutes, { options: services.firmOptions });
  await app.register(rebalancerAccountRoutes, { accounts: services.rebalancerAccounts, plans: services.restrictedPlans });
  await app.register(substitutionRoutes, { substitutions: services.substitutions });
};
