import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { TOTAL_COUNT_HEADER } from '../../http/paging.js';
import { responses } from '../../http/problem.js';
import { principalOf } from '../../auth/hook.js';
import { Privilege } from '../../auth/privileges.js';
import { GroupQuery, ModelAggDetail, ModelAggItem, ModelAggParams, TradeGroupDetail, TradeGroupItem, TradeGroupParams } from './schemas.js';
import type { GroupService } from './service.js';

const read = { privilege: Privilege.PortfolioRead };

/** The spec names no path for these lists; see docs/decisions/rebalancer-source-client-reads.md. */
export const groupRoutes: FastifyPluginAsyncTypebox<{ groups: GroupService }> = async (app, { groups }) => {
  app.get(
    '/v1/tradeGroups',
    {
      config: read,
      schema: {
        tags: ['Trade groups and aggregate models'],
        summary: 'The firm\'s trade groups (keys of a TradeGroup rebalance), by name; paged with $top/$skip, filtered with search; the total is in X-Total-Count', description: 'Lists the firm\'s trade groups with their account counts: the ids a `TradeGroup` rebalance takes as keys. Pages with `$top`/`$skip`; `search` filters by name.',
        querystring: GroupQuery,
        response: responses({ 200: Type.Array(TradeGroupItem, TOTAL_COUNT_HEADER) }, [401, 403]),
      },
    },
    async (request, reply) => {
      const { search, $top, $skip } = request.query;
      const { items, total } = await groups.tradeGroups(principalOf(request).firmId, { search, top: $top, skip: $skip });
      reply.header('X-Total-Count', String(total));
      return items;
    },
  );
  app.get(
    '/v1/tradeGroups/:tradeGroupId',
    { config: read, schema: { tags: ['Trade groups and aggregate models'], summary: 'One trade group with its accounts', description: 'Reads one trade group with the accounts a rebalance of it would take.', params: TradeGroupParams, response: responses({ 200: TradeGroupDetail }, [401, 403, 404]) } },
    async (request) => groups.tradeGroup(principalOf(request).firmId, request.params.tradeGroupId),
  );
  app.get(
    '/v1/modeling/modelAggs',
    {
      config: read,
      schema: {
        tags: ['Trade groups and aggregate models'],
        summary: 'The firm\'s aggregate models (keys of a ModelAgg rebalance), by name; paged with $top/$skip, filtered with search; the total is in X-Total-Count', description: 'Lists the firm\'s aggregate models: the ids a `ModelAgg` rebalance takes as keys. Pages with `$top`/`$skip`; `search` filters by name.',
        querystring: GroupQuery,
        response: responses({ 200: Type.Array(ModelAggItem, TOTAL_COUNT_HEADER) }, [401, 403]),
      },
    },
    async (request, reply) => {
      const { search, $top, $skip } = request.query;
      const { items, total } = await groups.modelAggs(principalOf(request).firmId, { search, top: $top, skip: $skip });
      reply.header('X-Total-Count', String(total));
      return items;
    },
  );
  app.get(
    '/v1/modeling/modelAggs/:modelAggId',
    { config: read, schema: { tags: ['Trade groups and aggregate models'], summary: 'One aggregate model with its models and weights', description: 'Reads one aggregate model with the models it combines and their weights.', params: ModelAggParams, response: responses({ 200: ModelAggDetail }, [401, 403, 404]) } },
    async (request) => groups.modelAgg(principalOf(request).firmId, request.params.modelAggId),
  );
};
