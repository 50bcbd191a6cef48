import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { TOTAL_COUNT_HEADER } from '../../http/paging.js';
import { responses } from '../../http/problem.js';
import { principalOf } from '../../auth/hook.js';
import { Privilege } from '../../auth/privileges.js';
import type { SubstitutionService } from '../../substitutions/service.js';
import { Substitution, SubstitutionCreate, SubstitutionParams, SubstitutionsQuery } from './schemas.js';

const read = { privilege: Privilege.PortfolioRead };
const edit = { privilege: Privilege.PortfolioEdit };
const tags = ['Product substitutions'];
const path = '/v1/modeling/substitutions';

/** The firm's product substitutions: what a rebalance with `useProductSubstitution = Use` (section 2.9) applies. */
export const substitutionRoutes: FastifyPluginAsyncTypebox<{ substitutions: SubstitutionService }> = async (app, { substitutions }) => {
  app.get(
    path,
    {
      config: read,
      schema: {
        tags,
        summary: 'The firm\'s product substitutions, by id; filtered by account, product or scope; the total is in X-Total-Count',
        description: 'Lists the substitutions a rebalance applies when `useProductSubstitution` is `Use`: firm-wide ones (`accountId` null) and those of single accounts, which win over the firm\'s for their account. Every match is answered unless `$top` is given; `accountId` keeps an account\'s own.',
        querystring: SubstitutionsQuery,
        response: responses({ 200: Type.Array(Substitution, TOTAL_COUNT_HEADER) }, [401, 403]),
      },
    },
    async (request, reply) => {
      const { $top, $skip, ...filter } = request.query;
      const { items, total } = await substitutions.list(principalOf(request).firmId, { ...filter, top: $top, skip: $skip });
      reply.header('X-Total-Count', String(total));
      return items;
    },
  );
  app.get(
    `${path}/:id`,
    { config: read, schema: { tags, summary: 'One substitution', description: 'Reads one substitution of your firm.', params: SubstitutionParams, response: responses({ 200: Substitution }, [401, 403, 404]) } },
    async (request) => substitutions.get(principalOf(request).firmId, request.params.id),
  );
  app.post(
    path,
    {
      config: edit,
      schema: {
        tags,
        summary: 'Add a substitution for the firm (accountId null) or one account',
        description:
          'From the next rebalance on, the model product `productId` is replaced by `substituteProductId` in every account of the firm (`accountId` null) or in the one account. 400 when a product or the account is not your firm\'s or the product would substitute itself; 409 when the scope already substitutes the product, or when the two would chain with an existing substitution (A → B beside B → C): rebalances never follow one substitute to another.',
        body: SubstitutionCreate,
        response: responses({ 200: Substitution }, [401, 403, 409]),
      },
    },
    async (request) => substitutions.create(principalOf(request).firmId, request.body),
  );
  app.delete(
    `${path}/:id`,
    {
      config: edit,
      schema: { tags, summary: 'Remove a substitution', description: 'Removes the substitution and answers it; the next rebalance trades the model product again. A rebalance already running keeps what it read.', params: SubstitutionParams, response: responses({ 200: Substitution }, [401, 403, 404]) },
    },
    async (request) => substitutions.remove(principalOf(request).firmId, request.params.id),
  );
};
