import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { COUNTED_PAGE_HEADERS, sendPageHeaders } from '../../http/paging.js';
import { responses } from '../../http/problem.js';
import { principalOf } from '../../auth/hook.js';
import { Privilege } from '../../auth/privileges.js';
import { AttachBody, ReplaceTeamModelsBody, ModelsQuery, ModelCreate, ModelParams, ModelRecord, ModelUpdate, TeamItem, TeamModels, TeamParams, TeamsQuery } from './schemas.js';
import { Allocation, AllocationsQuery, ModelPortfolio, ModelPortfoliosQuery, PrioritiesUpdate, SecurityPriority } from './securities-schemas.js';
import type { ModelSecurityService } from './securities-service.js';
import type { ModelService } from './service.js';

const read = { privilege: Privilege.PortfolioRead };
const edit = { privilege: Privilege.PortfolioEdit };
const tags = ['Models and teams'];

/** Section 4.10 plus the model reads and writes a firm needs to maintain its models. */
export const modelRoutes: FastifyPluginAsyncTypebox<{ models: ModelService; securities: ModelSecurityService }> = async (app, { models, securities }) => {
  app.get(
    '/v1/modeling/models',
    {
      config: read,
      schema: {
        tags,
        summary: 'The models the caller may see',
        description: 'The models of the teams you belong to (administrators see all), by name, each with its targets, cash target and teams. `name` keeps those whose name contains the text. Paged with `$top` (1000 by default, at most 100000) and `$skip`; X-Total-Count carries how many you may see, and a `Link` header names the next page while there is one.',
        querystring: ModelsQuery,
        response: responses({ 200: { ...Type.Array(ModelRecord), ...COUNTED_PAGE_HEADERS } }, [400, 401, 403]),
      },
    },
    async (request, reply) => {
      const { name, $top, $skip } = request.query;
      const { items, total } = await models.page(principalOf(request), { name, top: $top, skip: $skip });
      sendPageHeaders(request, reply, { top: $top, skip: $skip, returned: items.length, total });
      return items;
    },
  );
  app.get(
    '/v1/modeling/models/:modelId',
    { config: read, schema: { tags, summary: 'One model with its targets, equivalents, cash target and teams',
        description: 'One model: the products it targets with their percentages and tolerance bands, equivalent products the rebalancer may use instead, the cash target, and the teams that see it.', params: ModelParams, response: responses({ 200: ModelRecord }, [401, 403, 404]) } },
    async (request) => models.get(principalOf(request), request.params.modelId),
  );
  app.get(
    '/v1/modeling/models/:modelId/teams',
    { config: read, schema: { tags, summary: 'The teams that may see the model',
        description: 'The teams the model is shared with.', params: ModelParams, querystring: TeamsQuery, response: responses({ 200: Type.Array(TeamItem) }, [401, 403, 404]) } },
    async (request) => models.teams(principalOf(request), request.params.modelId),
  );
  app.get(
    '/v1/modeling/models/:modelId/allocations',
    {
      config: read,
      schema: {
        tags,
        summary: 'The model\'s securities with their targets; aggregateAllocations=false adds tolerances, asset class names, equivalents and priorities', description: 'Lists a model\'s securities with their target weights; with `aggregateAllocations=false` it adds tolerances, asset class names, equivalents and buy and sell priorities.',
        params: ModelParams,
        querystring: AllocationsQuery,
        response: responses({ 200: Type.Array(Allocation) }, [401, 403, 404]),
      },
    },
    async (request) => securities.allocations(principalOf(request), request.params.modelId, request.query.aggregateAllocations),
  );
  app.get(
    '/v1/modeling/models/:modelId/portfolios',
    {
      config: read,
      schema: {
        tags,
        summary: 'The portfolios (registrations) with active accounts on the model',
        description: 'Lists the portfolios (registrations) that hold at least one active account following the model, by name. Paged with `$top` (10000 by default, at most 100000) and `$skip`; X-Total-Count carries how many there are, and a `Link` header names the next page while there is one.',
        params: ModelParams,
        querystring: ModelPortfoliosQuery,
        response: responses({ 200: { ...Type.Array(ModelPortfolio), ...COUNTED_PAGE_HEADERS } }, [400, 401, 403, 404]),
      },
    },
    async (request, reply) => {
      const { $top, $skip } = request.query;
      const { items, total } = await securities.portfolios(principalOf(request), request.params.modelId, { top: $top, skip: $skip });
      sendPageHeaders(request, reply, { top: $top, skip: $skip, returned: items.length, total });
      return items;
    },
  );
  app.get(
    '/v1/modeling/models/:modelId/priorities',
    {
      config: read,
      schema: { tags, summary: 'Buy and sell priorities of every security of the model, targets and equivalents; null when not set', description: 'Reads the buy and sell priorities set on each security of the model, targets and equivalents; null where none is set.', params: ModelParams, response: responses({ 200: Type.Array(SecurityPriority) }, [401, 403, 404]) },
    },
    async (request) => securities.priorities(principalOf(request), request.params.modelId),
  );
  app.put(
    '/v1/modeling/models/:modelId/priorities',
    {
      config: edit,
      schema: {
        tags,
        summary: 'Set buy and sell priorities of the listed securities (null clears one; unlisted keep theirs); every account on the model trades by them unless its restricted plan says otherwise', description: 'Sets buy and sell priorities on securities of the model; null clears one and unlisted securities keep theirs. Accounts on the model trade by them unless a restricted plan gives its own. A bad item changes nothing.',
        params: ModelParams,
        body: PrioritiesUpdate,
        response: responses({ 200: Type.Array(SecurityPriority) }, [401, 403, 404]),
      },
    },
    async (request) => securities.setPriorities(principalOf(request), request.params.modelId, request.body),
  );
  app.post(
    '/v1/modeling/models',
    { config: edit, schema: { tags, summary: 'Create a model; targets and cash total 100%',
        description: 'Creates a model from its product targets and cash target, which must add up to 100%, and the teams that may use it. Answers the model with its id.', body: ModelCreate, response: responses({ 200: ModelRecord }, [401, 403]) } },
    async (request) => models.create(principalOf(request), request.body),
  );
  app.put(
    '/v1/modeling/models/:modelId',
    {
      config: edit,
      schema: {
        tags,
        summary: 'Update a model; teamIds is the complete set of teams, omitted targets and cash fields keep their values',
        description: 'Changes a model. teamIds, when sent, replaces the teams; targets and cash fields left out keep their values; the total must still be 100%.',
        params: ModelParams,
        body: ModelUpdate,
        response: responses({ 200: ModelRecord }, [401, 403, 404]),
      },
    },
    async (request) => models.update(principalOf(request), request.params.modelId, request.body),
  );
  app.get(
    '/v1/admin/teams',
    { config: read, schema: { tags, summary: 'The firm\'s teams',
        description: 'Every team of your firm (id and name).', response: responses({ 200: Type.Array(TeamItem) }, [401, 403]) } },
    async (request) => models.allTeams(principalOf(request).firmId),
  );
  app.post(
    '/v1/admin/teams/:teamId/Models',
    { config: edit, schema: { tags, summary: 'Attach models to a team',
        description: 'Shares the listed models with the team (models already shared are left as they are) and answers the team\'s models.', params: TeamParams, body: AttachBody, response: responses({ 200: TeamModels }, [401, 403, 404]) } },
    async (request) => models.attach(principalOf(request), request.params.teamId, request.body.modelIds),
  );
  app.put(
    '/v1/admin/teams/:teamId/Models',
    { config: edit, schema: { tags, summary: 'Replace a team\'s models',
        description: 'Makes the listed models the team\'s complete model list: models left out lose this team and keep their other teams; a model left with no team is seen by every user of the firm, as a model created without teams is. Answers the team\'s models.', params: TeamParams, body: ReplaceTeamModelsBody, response: responses({ 200: TeamModels }, [401, 403, 404]) } },
    async (request) => models.replaceTeamModels(principalOf(request), request.params.teamId, request.body.modelIds),
  );
};
