import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';
import { RebalancerAccountRepository } from '../accounts/repository.js';
import { RebalancerAccountService } from '../accounts/service.js';
import { ModelRepository } from '../models/repository.js';
import { ModelService } from '../models/service.js';
import { EclipseRepository } from './repository.js';
import { EclipseService } from './service.js';
import { eclipseV1Routes } from './v1-routes.js';
import { eclipseV2Routes } from './v2-routes.js';
import { EclipseV2Service } from './v2-service.js';

/**
 * The source system's remaining Eclipse reads (v1 and v2), over the same book and services as the
 * rebalancer's other reads: the same account service, model visibility and trade block services.
 */
export const eclipseRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const db = services.db.kysely;
  const models = new ModelService(new ModelRepository(db), services.clock);
  const accounts = new RebalancerAccountService(new RebalancerAccountRepository(db), services.clock, (principal, modelId) => models.assertVisible(principal, modelId));
  const eclipse = new EclipseService(new EclipseRepository(db), accounts, models, services.clock);
  const v2 = new EclipseV2Service(eclipse, services.tradeBlocks, services.tradeBlockReasons, services.rebalancerTradeBlocks);
  await app.register(eclipseV1Routes, { eclipse });
  await app.register(eclipseV2Routes, { eclipse, v2 });
};
