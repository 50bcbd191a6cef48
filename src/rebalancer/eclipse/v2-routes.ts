import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendJsonArray } from '../../http/json-array-stream.js';
import { COUNTED_PAGE_HEADERS, TOTAL_COUNT_HEADER, sendPageHeaders } from '../../http/paging.js';
import { responses } from '../../http/problem.js';
import { principalOf } from '../../auth/hook.js';
import { Privilege } from '../../auth/privileges.js';
import { Security } from './schemas.js';
import { AccountSearchItem, AccountSearchQuery, BlocksQuery, DetailHistoryItem, EditableReason, GlobalSearchQuery, GlobalSearchResult, HistoryParams, HistoryQuery, RelatedEntitiesQuery, RelatedEntityItem, RestrictedPlanAccountsQuery, SecuritySearchQuery, SetAsideSetting, SetAsideSettingsBody, SleeveStrategy, TeamItem, TeamsQuery, TradingBlock, V2AccountDetail, V2AccountListItem, V2AccountParams, V2AccountsQuery } from './v2-schemas.js';
import type { EclipseService } from './service.js';
import type { EclipseV2Service } from './v2-service.js';

const read = { privilege: Privilege.PortfolioRead };
const accountTags = ['Accounts'];
const searchTags = ['Eclipse searches'];
const tradingTags = ['Eclipse trade orders and blocks'];
const portfolioTagsV2 = ['Eclipse portfolios and securities'];
const SEARCH = 'Matches case-insensitively anywhere in the text (part of a number, a name or a ticker), or the id when all digits.';

/**
 * The source system's v2 Eclipse reads. Static segments (RestrictedPlan, SetAsideCashSettings,
 * RelatedEntities, History) win over `:id` routes in the router, whatever the order they are added in.
 */
export const eclipseV2Routes: FastifyPluginAsyncTypebox<{ eclipse: EclipseService; v2: EclipseV2Service }> = async (app, { eclipse, v2 }) => {
  app.get(
    '/api/v2/Account/Accounts',
    {
      config: read,
      schema: {
        tags: accountTags,
        summary: 'Active accounts with values, model, cash and restricted plan (v2 names); the total is in X-Total-Count',
        description: 'The same accounts as GET /v1/account/accounts, with the v2 field names registrationId, restrictedPlanName and isDisabled. Every account is answered unless `$top` is given.',
        querystring: V2AccountsQuery,
        response: responses({ 200: Type.Array(V2AccountListItem, TOTAL_COUNT_HEADER) }, [401, 403]),
      },
    },
    async (request, reply) => {
      const { total, pages } = await v2.accounts(principalOf(request).firmId, { top: request.query.$top, skip: request.query.$skip });
      reply.header('X-Total-Count', String(total));
      return sendJsonArray(reply, pages);
    },
  );
  app.get(
    '/api/v2/Account/Accounts/RestrictedPlan',
    {
      config: read,
      schema: {
        tags: ['Restricted plans'],
        summary: 'The active accounts assigned to a restricted plan (restrictedPlanId or externalPlanId)',
        description: 'One of restrictedPlanId and externalPlanId names the plan (a 400 otherwise); 404 when the firm has no such plan. Like GET /api/v2/Account/Accounts, every account of the plan is answered (sent 1000 at a time) unless `$top` is given (at most 100000); `$skip` skips. X-Total-Count carries how many accounts the plan has, and with `$top` a `Link` header names the next page while there is one.',
        querystring: RestrictedPlanAccountsQuery,
        response: responses({ 200: { ...Type.Array(V2AccountListItem), ...COUNTED_PAGE_HEADERS } }, [400, 401, 403, 404]),
      },
    },
    async (request, reply) => {
      const { $top, $skip } = request.query;
      const { total, pages } = await v2.restrictedPlanAccounts(principalOf(request).firmId, request.query);
      // The body is streamed, so a page's length is known from the total before it is sent.
      const top = $top ?? Number.MAX_SAFE_INTEGER;
      sendPageHeaders(request, reply, { top, skip: $skip, returned: Math.max(0, Math.min(top, total - $skip)), total });
      return sendJsonArray(reply, pages);
    },
  );
  app.post(
    '/api/v2/Account/Accounts/SetAsideCashSettings',
    {
      config: read,
      schema: {
        tags: ['Set aside cash'],
        summary: 'The set aside cash records of the accounts whose ids are posted (a read: nothing is written)',
        description: 'The body is a JSON array of account ids, as the source system\'s client posts it. Each record carries its account id and number. An id that is not an account of the firm is a 400 naming its index, and nothing is answered.',
        body: SetAsideSettingsBody,
        response: responses({ 200: Type.Array(SetAsideSetting) }, [401, 403]),
      },
    },
    async (request) => eclipse.setAsideSettings(principalOf(request).firmId, request.body),
  );
  app.get(
    '/api/v2/Account/Accounts/:accountId',
    {
      config: read,
      schema: {
        tags: accountTags,
        summary: 'One account with its summarySection and accountValue.holdings (v2 names)',
        description: 'The account of GET /v1/account/accounts/{id}, with restrictedPlanId/restrictedPlanName and its holdings under accountValue. Closed accounts are answered too.',
        params: V2AccountParams,
        response: responses({ 200: V2AccountDetail }, [401, 403, 404]),
      },
    },
    async (request) => v2.account(principalOf(request).firmId, request.params.accountId),
  );
  app.get(
    '/api/v2/TradeBlockReasons/Editable',
    {
      config: read,
      schema: {
        tags: ['Trade block details (v2)'],
        summary: 'The trade block reasons a user may edit: every reason that is not system-maintained',
        description: 'The firm\'s own reasons, with their globalId and whether details may be assigned to them.',
        response: responses({ 200: Type.Array(EditableReason) }, [401, 403]),
      },
    },
    async (request) => v2.editableReasons(principalOf(request).firmId),
  );
  app.get(
    '/api/v2/TradeBlockDetails/RelatedEntities',
    {
      config: read,
      schema: {
        tags: ['Trade block details (v2)'],
        summary: 'The entity first, then its related entities: a portfolio\'s accounts, or an account\'s portfolio',
        description: 'entityType 16 is a portfolio (registration), 32 an account. 404 when the firm has no such entity.',
        querystring: RelatedEntitiesQuery,
        response: responses({ 200: Type.Array(RelatedEntityItem) }, [401, 403, 404]),
      },
    },
    async (request) => v2.relatedEntities(principalOf(request).firmId, request.query.entityType, request.query.entityId),
  );
  app.get(
    '/api/v2/TradeBlockDetails/History/:entityType/:id',
    {
      config: read,
      schema: {
        tags: ['Trade block details (v2)'],
        summary: 'The trade block details of a portfolio (16) or account (32), deleted ones too, each with its last change',
        description: 'With startDate/endDate, the details last changed on those days (inclusive). 404 when the firm has no such entity.',
        params: HistoryParams,
        querystring: HistoryQuery,
        response: responses({ 200: Type.Array(DetailHistoryItem) }, [401, 403, 404]),
      },
    },
    async (request) => v2.detailHistory(principalOf(request).firmId, request.params.entityType, request.params.id, request.query),
  );
  app.get(
    '/api/v2/Trading/Blocks',
    {
      config: read,
      schema: {
        tags: tradingTags,
        summary: 'Trading blocks: the pending (open) trade orders summed per security and action',
        description: 'One block per security and side over every open trade order of the firm, by ticker then side, with its shares, dollars, orders and accounts. hasQuodd, registrationStatus and getAdv are accepted and narrow nothing: the book keeps no quotes, broker registrations or volumes. Paged with `$top` (5000 by default, at most 50000) and `$skip`; X-Total-Count carries how many blocks there are, and a `Link` header names the next page while there is one.',
        querystring: BlocksQuery,
        response: responses({ 200: { ...Type.Array(TradingBlock), ...COUNTED_PAGE_HEADERS } }, [400, 401, 403]),
      },
    },
    async (request, reply) => {
      const { $top, $skip } = request.query;
      const { items, total } = await eclipse.blocks(principalOf(request).firmId, { top: $top, skip: $skip });
      sendPageHeaders(request, reply, { top: $top, skip: $skip, returned: items.length, total });
      return items;
    },
  );
  app.get(
    '/api/v2/Portfolio/Sleeves/SleeveStrategies',
    {
      config: read,
      schema: {
        tags: portfolioTagsV2,
        summary: 'Sleeve strategies: the firm\'s model aggregates with their models and weights',
        description: 'A sleeve strategy here is a model aggregate; hasAssignedRegistrations says whether a sleeved registration names it.',
        response: responses({ 200: Type.Array(SleeveStrategy) }, [401, 403]),
      },
    },
    async (request) => v2.sleeveStrategies(principalOf(request).firmId),
  );
  app.get(
    '/api/v2/Team/Team/GetTeams',
    {
      config: read,
      schema: { tags: ['Models and teams'], summary: 'The firm\'s teams (id and name); externalId narrows to the team of that id', description: 'The teams that decide who sees which model.', querystring: TeamsQuery, response: responses({ 200: Type.Array(TeamItem) }, [401, 403]) },
    },
    async (request) => v2.teams(principalOf(request).firmId, request.query.externalId),
  );
  app.get(
    '/api/v2/AccountSearch/AccountSearchList',
    {
      config: read,
      schema: { tags: searchTags, summary: 'Active accounts matching search by number, name or id; paged with limit/offset', description: SEARCH, querystring: AccountSearchQuery, response: responses({ 200: Type.Array(AccountSearchItem) }, [401, 403]) },
    },
    async (request) => v2.accountSearch(principalOf(request).firmId, request.query),
  );
  app.get(
    '/api/v2/SecuritySearch/SecuritySearchList',
    {
      config: read,
      schema: {
        tags: searchTags,
        summary: 'Securities matching search by ticker, name or id; paged with skip/take',
        description: `${SEARCH} externalFirmId, when sent, must be the caller's firm and externalAccountId an account of it (404 otherwise).`,
        querystring: SecuritySearchQuery,
        response: responses({ 200: Type.Array(Security) }, [401, 403, 404]),
      },
    },
    async (request) => v2.securitySearch(principalOf(request).firmId, request.query),
  );
  app.get(
    '/api/v2/GlobalSearch/GlobalSearchList',
    {
      config: read,
      schema: {
        tags: searchTags,
        summary: 'Portfolios, accounts and models matching search (or name), at most limit of each',
        description: `${SEARCH} \`name\` matches names only. Models are those the caller may see.`,
        querystring: GlobalSearchQuery,
        response: responses({ 200: GlobalSearchResult }, [401, 403]),
      },
    },
    async (request) => v2.globalSearch(principalOf(request), request.query),
  );
};
