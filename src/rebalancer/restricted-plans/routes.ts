import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { COUNTED_PAGE_HEADERS, sendPageHeaders } from '../../http/paging.js';
import { responses } from '../../http/problem.js';
import { principalOf } from '../../auth/hook.js';
import { Privilege } from '../../auth/privileges.js';
import { validationError } from '../../shared/errors.js';
import { DeleteResult, PlanCreate, PlanDetail, PlanIdQuery, PlanListItem, PlanQuery, PlanUpdate } from './schemas.js';
import type { RestrictedPlanService } from './service.js';

const read = { privilege: Privilege.PortfolioRead };
const edit = { privilege: Privilege.PortfolioEdit };
const tags = ['Restricted plans'];
const path = '/v1/restrictedPlans';

/** Section 4.3: one path, the query decides between list, search and detail. */
export const restrictedPlanRoutes: FastifyPluginAsyncTypebox<{ plans: RestrictedPlanService }> = async (app, { plans }) => {
  app.get(
    path,
    {
      config: read,
      schema: {
        tags,
        summary: 'All plans; ?search= plans whose name contains the text; ?id= or ?externalPlanId= one plan with its securities',
        description: 'Without `id` or `externalPlanId`, the restricted plans of your firm by name, paged with `$top` (100 by default, at most 1000) and `$skip`; X-Total-Count carries how many match, and a `Link` header names the next page while there is one. `search` keeps plans whose name contains the text; `id` or `externalPlanId` answers one plan with its securities and their buy and sell priorities.',
        querystring: PlanQuery,
        response: responses({ 200: { ...Type.Union([Type.Array(PlanListItem), PlanDetail]), ...COUNTED_PAGE_HEADERS } }, [400, 401, 403, 404]),
      },
    },
    async (request, reply) => {
      const { id, externalPlanId, search, $top, $skip } = request.query;
      const given = [id, externalPlanId, search].filter((v) => v !== undefined).length;
      if (given > 1) throw validationError('querystring', 'give at most one of id, externalPlanId and search');
      const firmId = principalOf(request).firmId;
      if (id !== undefined) return plans.detail(firmId, { id });
      if (externalPlanId !== undefined) return plans.detail(firmId, { externalPlanId });
      const { items, total } = await plans.page(firmId, search, { top: $top, skip: $skip });
      sendPageHeaders(request, reply, { top: $top, skip: $skip, returned: items.length, total });
      return items;
    },
  );
  app.post(
    path,
    { config: edit, schema: { tags, summary: 'Create a plan with its securities',
        description: 'Creates a restricted plan: a name, an optional external id, and for each security whether the rebalancer may buy or sell it and with which priority. Answers the plan with its id.', body: PlanCreate, response: responses({ 200: PlanDetail }, [401, 403]) } },
    async (request) => plans.create(principalOf(request), request.body),
  );
  app.put(
    path,
    {
      config: edit,
      schema: {
        tags,
        summary: 'Edit a plan: listed securities are added or rewritten, deletedSecurities removed, others kept',
        description: 'Changes a plan\'s name and securities: securities listed are added or rewritten, those in deletedSecurities are removed, the rest stay as they were.',
        querystring: PlanIdQuery,
        body: PlanUpdate,
        response: responses({ 200: PlanDetail }, [401, 403, 404]),
      },
    },
    async (request) => plans.update(principalOf(request), request.query.id, request.body),
  );
  app.delete(
    path,
    {
      config: edit,
      schema: { tags, summary: 'Delete a plan that no account uses',
        description: 'Deletes the plan named by `id`. 409 while an account still uses it: give those accounts another plan (or none) first.', querystring: PlanIdQuery, response: responses({ 200: DeleteResult }, [401, 403, 404, 409]) },
    },
    async (request) => plans.remove(principalOf(request).firmId, request.query.id),
  );
};
