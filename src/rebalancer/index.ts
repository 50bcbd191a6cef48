import type { FastifyPluginAsync } from 'fastify';
import { healthRoutes } from '../http/health.js';
import { registerOpenApi } from '../http/openapi.js';
import { requireAuthentication } from '../platform/auth/hook.js';
import type { Services } from '../services.js';

/** The rebalancing application at {rebalancer_base_url}; its routes take rebalancer tokens. */
export const rebalancerApp: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  await registerOpenApi(app, {
    title: 'Wealth platform: rebalancing application',
    description: 'The rebalancing application ({rebalancer_base_url}). Send `Authorization: Session <rebalancer token>`.',
  });
  await app.register(healthRoutes, { db: services.db });
  await app.register(async (secured) => {
    requireAuthentication(secured, services.auth, 'rebalancer');
  });
};
