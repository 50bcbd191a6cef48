import type { FastifyPluginAsync } from 'fastify';
import { healthRoutes } from '../http/health.js';
import { registerOpenApi } from '../http/openapi.js';
import { requireAuthentication } from '../auth/hook.js';
import type { Services } from '../services.js';
import { rebalancerAuthRoutes } from './auth/routes.js';
import { RebalancerUserRepository } from './auth/user-repository.js';
import { rebalancerDataRoutes } from './data-routes.js';
import { priorityRoutes } from './priorities/routes.js';
import { tradeBlockDetailsV2Routes } from './trade-block-details/routes.js';

/** The rebalancing application at {rebalancer_base_url}; its routes take rebalancer tokens. */
export const rebalancerApp: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  await registerOpenApi(app, {
    title: 'Wealth platform: rebalancing application',
    description: 'The rebalancing application ({rebalancer_base_url}). Send `Authorization: Session <rebalancer token>`.',
  });
  await app.register(healthRoutes, { db: services.db });
  await app.register(async (secured) => {
    requireAuthentication(secured, services.auth, 'rebalancer');
    await secured.register(rebalancerAuthRoutes, { auth: services.auth, users: new RebalancerUserRepository(services.db.kysely) });
    await secured.register(priorityRoutes);
    await secured.register(rebalancerDataRoutes, { db: services.db.kysely, clock: services.clock });
    await secured.register(tradeBlockDetailsV2Routes, { details: services.rebalancerTradeBlocks });
  });
};
