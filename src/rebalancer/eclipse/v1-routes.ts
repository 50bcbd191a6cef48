import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendJsonArray } from '../../http/json-array-stream.js';
import { COUNTED_PAGE_HEADERS, PAGE_HEADERS, TOTAL_COUNT_HEADER, WholeListQuery, sendPageHeaders } from '../../http/paging.js';
import { responses } from '../../http/problem.js';
import { principalOf } from '../../auth/hook.js';
import { Privilege } from '../../auth/privileges.js';
import { validationError } from '../../shared/errors.js';
import { AccountListItem, AccountSimple, SimpleAccountsQuery } from '../accounts/schemas.js';
import { HoldingSimple, HoldingsQuery, InstancesQuery, PortfolioDetail, PortfolioParams, PortfolioSimple, PortfoliosQuery, SecuritiesQuery, Security, SecuritySet, SecuritySetsQuery, SecuritySetDetail, SecuritySetParams, SleeveItem, TradeInstance, TradeOrder, TradesQuery } from './schemas.js';
import type { EclipseService } from './service.js';

const read = { privilege: Privilege.PortfolioRead };
const portfolioTags = ['Eclipse portfolios and securities'];
const tradingTags = ['Eclipse trade orders and blocks'];
const PORTFOLIO = 'A portfolio here is a registration: its accounts, managed together.';

/** The source system's v1 Eclipse reads of portfolios, holdings, security sets, securities, trade orders and sleeves. */
export const eclipseV1Routes: FastifyPluginAsyncTypebox<{ eclipse: EclipseService }> = async (app, { eclipse }) => {
  app.get(
    '/v1/portfolio/portfolios/simple',
    {
      config: read,
      schema: {
        tags: portfolioTags,
        summary: 'Portfolios (registrations) in the short form; search, includevalue, $top/$skip; the total is in X-Total-Count',
        description: `${PORTFOLIO} Every match is answered unless \`$top\` is given.`,
        querystring: PortfoliosQuery,
        response: responses({ 200: Type.Array(PortfolioSimple, TOTAL_COUNT_HEADER) }, [401, 403]),
      },
    },
    async (request, reply) => {
      const { total, pages } = await eclipse.portfolios(principalOf(request).firmId, request.query);
      reply.header('X-Total-Count', String(total));
      return sendJsonArray(reply, pages);
    },
  );
  app.get(
    '/v1/portfolio/portfolios/:portfolioId',
    {
      config: read,
      schema: {
        tags: portfolioTags,
        summary: 'One portfolio (registration) with its general, teams, issues and summary sections',
        description: `${PORTFOLIO} 404 when the firm has no such registration.`,
        params: PortfolioParams,
        response: responses({ 200: PortfolioDetail }, [401, 403, 404]),
      },
    },
    async (request) => eclipse.portfolio(principalOf(request).firmId, request.params.portfolioId),
  );
  app.get(
    '/v1/portfolio/portfolios/:portfolioId/accounts',
    {
      config: read,
      schema: {
        tags: portfolioTags,
        summary: 'The portfolio\'s active accounts with values, model, cash and restricted plan (as GET /v1/account/accounts)',
        description: `${PORTFOLIO} 404 when the firm has no such registration.`,
        params: PortfolioParams,
        response: responses({ 200: Type.Array(AccountListItem) }, [401, 403, 404]),
      },
    },
    async (request, reply) => {
      const firmId = principalOf(request).firmId;
      await eclipse.portfolioRow(firmId, request.params.portfolioId);
      return sendJsonArray(reply, (await eclipse.accounts.list(firmId, { registrationId: request.params.portfolioId, skip: 0 })).pages);
    },
  );
  app.get(
    '/v1/portfolio/portfolios/:portfolioId/accounts/simple',
    {
      config: read,
      schema: {
        tags: portfolioTags,
        summary: 'The portfolio\'s active accounts in the short form (as GET /v1/account/accounts/simple)',
        description: `${PORTFOLIO} 404 when the firm has no such registration.`,
        params: PortfolioParams,
        querystring: Type.Pick(SimpleAccountsQuery, ['includevalue']),
        response: responses({ 200: Type.Array(AccountSimple) }, [401, 403, 404]),
      },
    },
    async (request, reply) => {
      const firmId = principalOf(request).firmId;
      await eclipse.portfolioRow(firmId, request.params.portfolioId);
      return sendJsonArray(reply, (await eclipse.accounts.simpleList(firmId, { registrationId: request.params.portfolioId, skip: 0 }, request.query.includevalue === true)).pages);
    },
  );
  app.get(
    '/v1/holding/holdings/simple',
    {
      config: read,
      schema: {
        tags: portfolioTags,
        summary: 'Holdings of one account (inAccountId) or of every active account of a portfolio (inPortfolioId); search narrows by ticker, name or id',
        description: 'Exactly one of inAccountId and inPortfolioId (or accountId / portfolioId, the same) is required: a 400 names it otherwise. Each holding carries its current, target and pending weights in its account. Paged with `$top` (5000 by default, the most positions one account holds, at most 20000) and `$skip`; X-Total-Count carries how many match, and a `Link` header names the next page while there is one.',
        querystring: HoldingsQuery,
        response: responses({ 200: { ...Type.Array(HoldingSimple), ...COUNTED_PAGE_HEADERS } }, [400, 401, 403, 404]),
      },
    },
    async (request, reply) => {
      const q = request.query;
      if (q.inAccountId !== undefined && q.accountId !== undefined && q.inAccountId !== q.accountId) throw validationError('querystring.accountId', 'must be the same as inAccountId, or be left out');
      if (q.inPortfolioId !== undefined && q.portfolioId !== undefined && q.inPortfolioId !== q.portfolioId) throw validationError('querystring.portfolioId', 'must be the same as inPortfolioId, or be left out');
      const accountId = q.inAccountId ?? q.accountId;
      const portfolioId = q.inPortfolioId ?? q.portfolioId;
      if ((accountId === undefined) === (portfolioId === undefined)) throw validationError('querystring.inAccountId', 'is required, or inPortfolioId: exactly one of them names whose holdings to list');
      const { items, total } = await eclipse.holdings(principalOf(request).firmId, { accountId, portfolioId }, q.search, { top: q.$top, skip: q.$skip });
      sendPageHeaders(request, reply, { top: q.$top, skip: q.$skip, returned: items.length, total });
      return items;
    },
  );
  app.get(
    '/v1/security/securityset',
    {
      config: read,
      schema: {
        tags: portfolioTags,
        summary: 'Security sets: each model the caller may see, with its lines (security, target, tolerance band, equivalents)',
        description: 'A security set here is a model\'s lines; its id is the model id. By name, as GET /v1/modeling/models lists the models: paged with `$top` (1000 by default, at most 100000) and `$skip`; X-Total-Count carries how many you may see, and a `Link` header names the next page while there is one.',
        querystring: SecuritySetsQuery,
        response: responses({ 200: { ...Type.Array(SecuritySet), ...COUNTED_PAGE_HEADERS } }, [400, 401, 403]),
      },
    },
    async (request, reply) => {
      const { $top, $skip } = request.query;
      const { items, total } = await eclipse.securitySets(principalOf(request), { top: $top, skip: $skip });
      sendPageHeaders(request, reply, { top: $top, skip: $skip, returned: items.length, total });
      return items;
    },
  );
  app.get(
    '/v1/security/securityset/details/:securitySetId',
    {
      config: read,
      schema: {
        tags: portfolioTags,
        summary: 'One security set (a model the caller may see) with its securities: symbol, name, target, tolerance band and equivalents',
        description: 'A security set here is a model\'s lines; its id is the model id. `securities` carries each line\'s symbol and name and its equivalents\' (`details` is the same lines as in the list). 404 when the firm has no such model or the caller may not see it.',
        params: SecuritySetParams,
        response: responses({ 200: SecuritySetDetail }, [401, 403, 404]),
      },
    },
    async (request) => eclipse.securitySet(principalOf(request), request.params.securitySetId),
  );
  app.get(
    '/v1/security/securities',
    {
      config: read,
      schema: {
        tags: portfolioTags,
        summary: 'Securities matching search by ticker, name or id (case-insensitive, partial); top of them',
        description: 'The firm\'s products, in id order. `excludeCashSecurity=true` leaves out cash.',
        querystring: SecuritiesQuery,
        response: responses({ 200: Type.Array(Security) }, [401, 403]),
      },
    },
    async (request) => eclipse.securities(principalOf(request).firmId, request.query),
  );
  app.get(
    '/v1/tradeorder/instances',
    {
      config: read,
      schema: {
        tags: tradingTags,
        summary: 'Trade instances (rebalances and quick trades) created from startDate to endDate, newest first',
        description: 'Each instance with the source system\'s type and subtype codes and its order count. Both dates are required and inclusive (UTC days). Paged with `$top` (1000 by default, at most 10000) and `$skip`; X-Total-Count carries how many were created in the range, and a `Link` header names the next page while there is one.',
        querystring: InstancesQuery,
        response: responses({ 200: { ...Type.Array(TradeInstance), ...COUNTED_PAGE_HEADERS } }, [400, 401, 403]),
      },
    },
    async (request, reply) => {
      const { startDate, endDate, $top, $skip } = request.query;
      const { items, total } = await eclipse.instances(principalOf(request).firmId, startDate, endDate, { top: $top, skip: $skip });
      sendPageHeaders(request, reply, { top: $top, skip: $skip, returned: items.length, total });
      return items;
    },
  );
  app.get(
    '/v1/tradeorder/trades',
    {
      config: read,
      schema: {
        tags: tradingTags,
        summary: 'Trade orders: the trades of the firm\'s trade instances; isPending=true the open ones, false the executed or cancelled ones',
        description: 'A trade order is one trade of a trade instance. Every match is answered, by id, unless `$top` is given (at most 100000), `$skip` skips; `portfolioId` narrows to the accounts of one registration. With `$count=true` the X-Total-Count header carries how many match (counting reads every trade of the firm, so ask only when you need it), and with `$top` a `Link` header names the next page while there is one.',
        querystring: TradesQuery,
        response: responses({ 200: { ...Type.Array(TradeOrder), ...PAGE_HEADERS } }, [400, 401, 403, 404]),
      },
    },
    async (request, reply) => {
      const firmId = principalOf(request).firmId;
      const { $top, $skip, $count } = request.query;
      const pages = await eclipse.trades(firmId, request.query);
      if ($count) {
        // The body is streamed, so a page's length is known from the total before it is sent.
        const total = await eclipse.tradeCount(firmId, request.query);
        const top = $top ?? Number.MAX_SAFE_INTEGER;
        sendPageHeaders(request, reply, { top, skip: $skip, returned: Math.max(0, Math.min(top, total - $skip)), total });
      }
      return sendJsonArray(reply, pages);
    },
  );
  app.get(
    '/v1/portfolio/sleeves',
    {
      config: read,
      schema: {
        tags: portfolioTags,
        summary: 'Sleeves: the sleeve accounts of sleeved registrations, with their target and tolerance band',
        description: 'Each sleeve account with its portfolio (registration), sleeve type, target, band and model, in id order; closed sleeves carry isDeleted 1. Like the account lists, every sleeve is answered (sent 1000 at a time) unless `$top` is given (at most 100000); `$skip` skips. X-Total-Count carries how many there are, and with `$top` a `Link` header names the next page while there is one.',
        querystring: WholeListQuery,
        response: responses({ 200: { ...Type.Array(SleeveItem), ...COUNTED_PAGE_HEADERS } }, [400, 401, 403]),
      },
    },
    async (request, reply) => {
      const { $top, $skip } = request.query;
      const { total, pages } = await eclipse.sleeves(principalOf(request).firmId, { top: $top, skip: $skip });
      // The body is streamed, so a page's length is known from the total before it is sent.
      const top = $top ?? Number.MAX_SAFE_INTEGER;
      sendPageHeaders(request, reply, { top, skip: $skip, returned: Math.max(0, Math.min(top, total - $skip)), total });
      return sendJsonArray(reply, pages);
    },
  );
};
