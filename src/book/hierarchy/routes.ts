import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PAGE_HEADERS, sendPageHeaders } from '../../http/paging.js';
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
import type { ListPage, PortfolioHierarchyService } from './service.js';
import type { FastifyReply, FastifyRequest } from 'fastify';

const read = { privilege: Privilege.PortfolioRead };

// Detail reads are the verbose record plus the names the source system's clients read; the
// verbose record's own fields are documented on the Verbose routes.
/** Sends a page's items with X-Total-Count (when asked) and the next page's Link; the body stays the spec's bare array. */
function sendPage<T>(request: FastifyRequest, reply: FastifyReply, page: ListPage<T>): T[] {
  sendPageHeaders(request, reply, { top: page.top, skip: page.skip, returned: page.items.length, total: page.total });
  return page.items;
}

const PAGING = 'Pages with `top`/`skip` (or `$top`/`$skip`): 20 by default, at most 1000; a page shorter than the page size is the last. With `$count=true` the X-Total-Count header carries how many match, and a `Link` header names the next page while there is one.';

const Detail = (simple: Parameters<typeof Type.Object>[0]) => Type.Object(simple, { additionalProperties: true });

/**
 * The portfolio hierarchy as the source system's clients read it (docs/partner-migration.md):
 * households ("clients"), registrations, accounts, assets and transactions, with `search`,
 * `top`/`skip` and the field names those clients use.
 */
export const portfolioHierarchyRoutes: FastifyPluginAsyncTypebox<{ compat: PortfolioHierarchyService }> = async (app, { compat }) => {
  app.get(
    '/authorization/user',
    {
      // Any live token may ask whom it belongs to.
      config: { tokenOnly: true },
      schema: {
        tags: ['Authentication'],
        summary: 'Who the token belongs to: user name (loginUserId), firm, role and privileges', description: 'Answers the user the token was issued to: the user name it logs in with (`loginUserId`), display name, role, firm and privileges. Clients call it to check a login worked.',
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
        tags: ['Custom fields'],
        summary: 'Custom-field definitions of one level; `description` is the display name, `code` the key', description: 'Lists the custom fields defined for one level (`client` or `household`, `registration`, `account`, `representative`, `product`). Each carries its display name as `description` beside its `code`, as clients written for the source system map one to the other.',
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
      schema: { tags: ['Households'], summary: 'Households whose name contains `search`, by id', description: 'Finds households by name: `search` is matched anywhere in the name, in any case. Households are always active, so `isActive` changes nothing. ' + PAGING, querystring: SearchQuery, response: responses({ 200: { ...Type.Array(ClientSimple), ...PAGE_HEADERS } }, [400, 401, 403]) },
    },
    async (request, reply) => sendPage(request, reply, await compat.searchClients(principalOf(request), request.query)),
  );
  app.get(
    '/Portfolio/Clients/:clientId',
    {
      config: read,
      schema: {
        tags: ['Households'],
        summary: 'One household: its verbose record with custom fields, plus isActive and representativeName', description: 'Reads one household as its verbose record (with its custom fields and the book below it) plus `isActive` and the representative\'s name.',
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
        tags: ['Households'],
        summary: 'The household\'s registrations', description: 'Lists the registrations of one household with their type, type id and tax status.',
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
        tags: ['Households'],
        summary: 'The household with its registrations and accounts and their current values', description: 'The household as a tree: its registrations and their accounts, each with its current value (cash plus priced holdings). `filterType` trims the tree; `includeRep` adds the representative and `includeAdditional` the notes, registration types and account models.',
        params: ClientParams,
        querystring: TreeQuery,
        response: responses({ 200: PortfolioTree }, [400, 401, 403, 404]),
      },
    },
    async (request) => compat.portfolioTree(principalOf(request), request.params.clientId, request.query),
  );

  app.get(
    '/Portfolio/Registrations/Types',
    { config: read, schema: { tags: ['Registrations'], summary: 'Registration types with stable ids and tax status', description: 'The registration types the platform knows, each with a stable id and how it is taxed (Taxable, TaxDeferred, TaxExempt). A registration whose type is not listed keeps its name and reads `typeId: null`.', response: responses({ 200: Type.Array(RegistrationType) }, [401, 403]) } },
    async () => compat.registrationTypes(),
  );
  app.get(
    '/Portfolio/Registrations/Simple/Search',
    {
      config: read,
      schema: { tags: ['Registrations'], summary: 'Registrations whose name contains `search`, by id', description: 'Finds registrations by name, in any case, with their household, type and tax status. ' + PAGING, querystring: SearchQuery, response: responses({ 200: { ...Type.Array(RegistrationSimple), ...PAGE_HEADERS } }, [400, 401, 403]) },
    },
    async (request, reply) => sendPage(request, reply, await compat.searchRegistrations(principalOf(request), request.query)),
  );
  app.get(
    '/Portfolio/Registrations/:registrationId',
    {
      config: read,
      schema: {
        tags: ['Registrations'],
        summary: 'One registration: its verbose record with custom fields, plus household name, type id and tax status', description: 'Reads one registration as its verbose record (with custom fields) plus its household\'s name, type id and tax status.',
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
      schema: { tags: ['Accounts'], summary: 'Accounts whose name or number contains `search`, by id', description: 'Finds accounts whose name or number contains `search`, in any case, with their owners, model and current value. `isActive=false` includes closed accounts. ' + PAGING, querystring: SearchQuery, response: responses({ 200: { ...Type.Array(AccountSimple), ...PAGE_HEADERS } }, [400, 401, 403]) },
    },
    async (request, reply) => sendPage(request, reply, await compat.searchAccounts(principalOf(request), request.query)),
  );
  app.get(
    '/Portfolio/Accounts/:accountId',
    {
      config: read,
      schema: {
        tags: ['Accounts'],
        summary: 'One account: its verbose record with custom fields, plus owners, model name and current value', description: 'Reads one account as its verbose record (with custom fields) plus its registration, household, model name and current value.',
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
      schema: { tags: ['Accounts'], summary: 'An account\'s holdings ("assets") with prices and values', description: 'Lists an account\'s holdings ("assets" in the source system) with product, shares, price, current value and cost. `hasValue=true`, the default, leaves out holdings with no price or no value.', querystring: AssetsQuery, response: responses({ 200: Type.Array(Asset) }, [400, 401, 403, 404]) },
    },
    async (request) => compat.assets(principalOf(request), request.query.accountId, request.query.hasValue ?? true),
  );
  app.get(
    '/Portfolio/Assets/Simple/Search',
    {
      config: read,
      schema: { tags: ['Accounts'], summary: 'Holdings whose ticker or product name contains `search`, across the firm', description: 'Finds holdings across the firm whose ticker or product name contains `search`, in any case, with the account that holds them. ' + PAGING, querystring: AssetSearchQuery, response: responses({ 200: { ...Type.Array(Asset), ...PAGE_HEADERS } }, [400, 401, 403]) },
    },
    async (request, reply) => sendPage(request, reply, await compat.searchAssets(principalOf(request), request.query)),
  );

  app.get(
    '/Portfolio/Transactions',
    {
      config: read,
      schema: {
        tags: ['Accounts'],
        summary: 'Recorded transactions, newest first, filtered by account, registration, household, dates and type', description: 'Lists recorded transactions (contributions, distributions, fees…), newest first, filtered by account, registration, household, trade dates and type ids. Recorded transactions are complete: another `status`, or `hasErrors=true`, lists nothing. ' + PAGING,
        querystring: TransactionsQuery,
        response: responses({ 200: { ...Type.Array(Transaction), ...PAGE_HEADERS } }, [400, 401, 403]),
      },
    },
    async (request, reply) => sendPage(request, reply, await compat.transactions(principalOf(request), request.query)),
  );
};
