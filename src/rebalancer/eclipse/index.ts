import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';
import { eclipseV1Routes } from './v1-routes.js';
import { eclipseV2Routes } from './v2-routes.js';

/**
 * The source system's remaining Eclipse reads (v1 and v2), over the same book and services as the
 * rebalancer's other reads: the same account service, model visibility and trade block services.
 */
export const eclipseRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  await app.register(eclipseV1Routes, { eclipse: services.eclipse });
  await app.register(eclipseV2Routes, { eclipse: services.eclipse, v2: services.eclipseV2 });
};
