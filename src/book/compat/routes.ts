import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../http/problem.js';
import { principalOf } from '../../auth/hook.js';
import { Privilege } from '../../auth/privileges.js';
import { DefinitionRecord } from '../custom-fields/schemas.js';
import {
  AccountParams,
  AccountSimple,
  Asset,
  AssetSearchQuery,
  AssetsQuery,
  AuthorizationUser,
  ClientParams,
  ClientSimple,
  DefinitionEntityParams,
  PortfolioTree,
  RegistrationParams,
  RegistrationSimple,
  RegistrationType,
  SearchQuery,
  Transaction,
  TransactionsQuery,
  TreeQuery,
} from './schemas.js';
import type { PortfolioCompatService } from './service.js';

const read = { privilege: Privilege.PortfolioRead };
const tags = ['Portfolio hierarchy'];
// Detail reads are the verbose record plus the names the source system's clients read; the
// verbose record's own fields are documented on the Verbose routes.
const Detail = (simple: Parameters<typeof Type.Object>[0]) => Type.Object(simple, { additionalProperties: true });

/**
 * The portfolio hierarchy as the source system's clients read it (docs/partner-migration.md):
 * households ("clients"), registrations, accounts, assets and transactions, with `search`,
 * `top`/`skip` and the field names those clients use.
 */
export const portfolioCompatRoutes: FastifyPluginAsyncTypebox<{ compat: PortfolioCompatService }> = async (app, { compat }) => {
  app.get(
    '/authorization/user',
    {
      // Any live token may ask whom it belongs to.
      config: { tokenOnly: true },
      schema: {
        tags: ['Authentication'],
        summary: 'Who the token belongs to: user name (loginUserId), firm, role and privileges',
        response: responses({ 200: AuthorizationUser }, [401]),
      },
    },
    async (request) => compat.user(principalOf(request)),
  );

  app.get(
    '/Settings/UserDefinedFields/Definitions/:entity',
    {
      config: read,
      schema: {
        tags,
        summary: 'Custom-field definitions of one level; `description` is the display name, `code` the key',
        params: DefinitionEntityParams,
        response: responses({ 200: Type.Array(Type.Object({ ...DefinitionRecord.properties, description: Type.String() })) }, [400, 401, 403]),
      },
    },
    async (request) => compat.definitionsOf(principalOf(request), request.params.entity),
  );

  app.get(
    '/Portfolio/Clients/Simple/Search',
    {
      config: read,
      schema: { tags, summary: 'Households whose name contains `search`, by id', querystring: SearchQuery, response: responses({ 200: Type.Array(ClientSimple) }, [400, 401, 403]) },
    },
    async (request) => compat.searchClients(principalOf(request), request.query),
  );
  app.get(
    '/Portfolio/Clients/:clientId',
    {
      config: read,
      schema: {
        tags,
        summary: 'One household: its verbose record with custom fields, plus isActive and representativeName',
        params: ClientParams,
        response: responses({ 200: Detail({ ...ClientSimple.properties }) }, [401, 403, 404]),
      },
    },
    async (request) => compat.client(principalOf(request), request.params.clientId),
  );
  app.get(
    '/Portfolio/Clients/:clientId/Registrations',
    {
      config: read,
      schema: {
        tags,
        summary: 'The household\'s registrations',
        params: ClientParams,
        querystring: Type.Object({ isActive: Type.Optional(Type.Boolean()) }),
        response: responses({ 200: Type.Array(RegistrationSimple) }, [401, 403, 404]),
      },
    },
    async (request) => compat.clientRegistrations(principalOf(request), request.params.clientId, request.query.isActive),
  );
  app.get(
    '/Portfolio/Clients/:clientId/PortfolioTree',
    {
      config: read,
      schema: {
        tags,
        summary: 'The household with its registrations and accounts and their current values',
        params: ClientParams,
        querystring: TreeQuery,
        response: responses({ 200: PortfolioTree }, [400, 401, 403, 404]),
      },
    },
    async (request) => compat.portfolioTree(principalOf(request), request.params.clientId, request.query),
  );

  app.get(
    '/Portfolio/Registrations/Types',
    { config: read, schema: { tags, summary: 'Registration types with stable ids and tax status', response: responses({ 200: Type.Array(RegistrationType) }, [401, 403]) } },
    async () => compat.registrationTypes(),
  );
  app.get(
    '/Portfolio/Registrations/Simple/Search',
    {
      config: read,
      schema: { tags, summary: 'Registrations whose name contains `search`, by id', querystring: SearchQuery, response: responses({ 200: Type.Array(RegistrationSimple) }, [400, 401, 403]) },
    },
    async (request) => compat.searchRegistrations(principalOf(request), request.query),
  );
  app.get(
    '/Portfolio/Registrations/:registrationId',
    {
      config: read,
      schema: {
        tags,
        summary: 'One registration: its verbose record with custom fields, plus household name, type id and tax status',
        params: RegistrationParams,
        response: responses({ 200: Detail({ ...RegistrationSimple.properties }) }, [401, 403, 404]),
      },
    },
    async (request) => compat.registration(principalOf(request), request.params.registrationId),
  );

  app.get(
    '/Portfolio/Accounts/Simple/Search',
    {
      config: read,
      schema: { tags, summary: 'Accounts whose name or number contains `search`, by id', querystring: SearchQuery, response: responses({ 200: Type.Array(AccountSimple) }, [400, 401, 403]) },
    },
    async (request) => compat.searchAccounts(principalOf(request), request.query),
  );
  app.get(
    '/Portfolio/Accounts/:accountId',
    {
      config: read,
      schema: {
        tags,
        summary: 'One account: its verbose record with custom fields, plus owners, model name and current value',
        params: AccountParams,
        response: responses({ 200: Detail({ ...AccountSimple.properties }) }, [401, 403, 404]),
      },
    },
    async (request) => compat.account(principalOf(request), request.params.accountId),
  );

  app.get(
    '/Portfolio/Assets',
    {
      config: read,
      schema: { tags, summary: 'An account\'s holdings ("assets") with prices and values', querystring: AssetsQuery, response: responses({ 200: Type.Array(Asset) }, [400, 401, 403, 404]) },
    },
    async (request) => compat.assets(principalOf(request), request.query.accountId, request.query.hasValue ?? true),
  );
  app.get(
    '/Portfolio/Assets/Simple/Search',
    {
      config: read,
      schema: { tags, summary: 'Holdings whose ticker or product name contains `search`, across the firm', querystring: AssetSearchQuery, response: responses({ 200: Type.Array(Asset) }, [400, 401, 403]) },
    },
    async (request) => compat.searchAssets(principalOf(request), request.query),
  );

  app.get(
    '/Portfolio/Transactions',
    {
      config: read,
      schema: {
        tags,
        summary: 'Recorded transactions, newest first, filtered by account, registration, household, dates and type',
        querystring: TransactionsQuery,
        response: responses({ 200: Type.Array(Transaction) }, [400, 401, 403]),
      },
    },
    async (request) => compat.transactions(principalOf(request), request.query),
  );
};
