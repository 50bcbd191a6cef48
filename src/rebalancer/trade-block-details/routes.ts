import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendJsonArray } from '../../http/json-array-stream.js';
import { COUNTED_PAGE_HEADERS, sendPageHeaders } from '../../http/paging.js';
import { responses } from '../../http/problem.js';
import { principalOf } from '../../auth/hook.js';
import { Privilege } from '../../auth/privileges.js';
import { V2Create, V2Detail, V2ListQuery, V2Update } from './schemas.js';
import type { RebalancerTradeBlockService } from './service.js';
import { IdSchema } from '../../http/ids.js';
import { validationError } from '../../shared/errors.js';

// The synced copy is portfolio data: the same privileges as the platform's v1 routes.
const read = { privilege: Privilege.PortfolioRead };
const edit = { privilege: Privilege.PortfolioEdit };

export interface V2RouteOptions {
  details: RebalancerTradeBlockService;
}

const tags = ['Trade block details (v2)'];
const base = '/api/v2/TradeBlockDetails';
const IdParams = Type.Object({ id: IdSchema() });

/** Section 9.3: the rebalancing application's v2 interface over its copy of trade block details. */
export const tradeBlockDetailsV2Routes: FastifyPluginAsyncTypebox<V2RouteOptions> = async (app, { details }) => {

  app.get(
    base,
    {
      config: read,
      schema: { tags, summary: 'Trade block details, optionally of one related entity',
        description: 'Every trade block detail of your firm in id order, or with `relatedType` and `relatedTypeId` only those of one portfolio or account. Every match is answered (sent 1000 at a time) unless `$top` is given (at most 100000); `$skip` skips. X-Total-Count carries how many match, and with `$top` a `Link` header names the next page while there is one.',
        querystring: V2ListQuery,
        response: responses({ 200: { ...Type.Array(V2Detail), ...COUNTED_PAGE_HEADERS } }, [400, 401, 403]) },
    },
    async (request, reply) => {
      const { $top, $skip } = request.query;
      const { total, pages } = await details.page(principalOf(request).firmId, request.query);
      // The body is streamed, so a page's length is known from the total before it is sent.
      const top = $top ?? Number.MAX_SAFE_INTEGER;
      sendPageHeaders(request, reply, { top, skip: $skip, returned: Math.max(0, Math.min(top, total - $skip)), total });
      return sendJsonArray(reply, pages);
    },
  );
  app.get(
    `${base}/:id`,
    { config: read, schema: { tags, summary: 'One trade block detail',
        description: 'One detail by id. 404 when your firm has no such detail.', params: IdParams, response: responses({ 200: V2Detail }, [401, 403, 404]) } },
    async (request) => details.get(principalOf(request).firmId, request.params.id),
  );
  app.post(
    base,
    { config: edit, schema: { tags, summary: 'Create one trade block detail',
        description: 'Creates one detail (entity, reason, description, dates) and answers it with its id and globalId.', body: V2Create, response: responses({ 200: V2Detail }, [401, 403]) } },
    async (request) => (await details.create(principalOf(request), [request.body], false))[0],
  );
  app.post(
    `${base}/AddList`,
    {
      config: edit,
      schema: {
        tags,
        summary: 'Create several trade block details, all or nothing',
        description: 'Creates every detail in the list or none: a 400 names each item and field that is wrong.',
        body: Type.Array(V2Create, { minItems: 1, maxItems: 10000 }),
        response: responses({ 200: Type.Array(V2Detail) }, [401, 403]),
      },
    },
    async (request) => details.create(principalOf(request), request.body, true),
  );
  app.put(
    base,
    { config: edit, schema: { tags, summary: 'Update description and dates of the detail with this id',
        description: 'Changes the description, start date and end date of the detail whose id is in the body.', body: V2Update, response: responses({ 200: V2Detail }, [401, 403, 404]) } },
    async (request) => details.update(principalOf(request), request.body),
  );
  // Spec 9.3: "an update key of id" — the id may also name the detail in the path, as REST clients send it.
  app.put(
    `${base}/:id`,
    {
      config: edit,
      schema: {
        tags,
        summary: 'Update description and dates of the detail named by the id in the path (a body id, if sent, must be the same)',
        description: 'As the update above, with the detail named in the path.',
        params: IdParams,
        body: Type.Partial(V2Update),
        response: responses({ 200: V2Detail }, [400, 401, 403, 404]),
      },
    },
    async (request) => {
      const { id } = request.params;
      if (request.body.id !== undefined && request.body.id !== id) throw validationError('id', `must be ${id}, the id in the path, or be left out`);
      return details.update(principalOf(request), { ...request.body, id });
    },
  );
  app.delete(
    `${base}/:id`,
    { config: edit, schema: { tags, summary: 'Soft-delete a trade block detail',
        description: 'Marks the detail deleted and answers it; it no longer blocks trading.', params: IdParams, response: responses({ 200: V2Detail }, [401, 403, 404]) } },
    async (request) => details.delete(principalOf(request), request.params.id),
  );
};
