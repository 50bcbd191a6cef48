import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../http/problem.js';
import { principalOf } from '../../auth/hook.js';
import { Privilege } from '../../auth/privileges.js';
import { BrokerDealer } from './schemas.js';
import type { RepresentativesService } from './service.js';

/**
 * Section 4.7 beside the verbose representative routes (GET …/Verbose/New, POST …/Verbose and the
 * rest, served by the book's verbose machinery).
 */
export const representativeRoutes: FastifyPluginAsyncTypebox<{ representatives: RepresentativesService }> = async (app, { representatives }) => {
  app.get(
    '/Portfolio/BrokerDealers',
    {
      config: { privilege: Privilege.PortfolioRead },
      schema: {
        tags: ['Representatives'],
        summary: 'The firm\'s broker/dealers, by name: a representative\'s brokerDealerId is one of them',
        description: 'The broker/dealers your firm works with, sorted by name. Use their ids as brokerDealerId when you create or change a representative.',
        response: responses({ 200: Type.Array(BrokerDealer) }, [401, 403]),
      },
    },
    async (request) => representatives.brokerDealers(principalOf(request).firmId),
  );
};
