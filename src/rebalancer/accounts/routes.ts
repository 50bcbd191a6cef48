import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendJsonArray } from '../../http/json-array-stream.js';
import { TOTAL_COUNT_HEADER } from '../../http/paging.js';
import { responses } from '../../http/problem.js';
import { principalOf } from '../../auth/hook.js';
import { Privilege } from '../../auth/privileges.js';
import { CASH_AMOUNT_TYPES, EXPIRATION_TYPES, PERCENT_TYPES, TRANSACTION_TYPES } from '../../set-aside-cash/records.js';
import { PlanListItem } from '../restricted-plans/schemas.js';
import type { RestrictedPlanService } from '../restricted-plans/service.js';
import {
  AccountDetail,
  AccountHolding,
  AccountListItem,
  AccountParams,
  AccountSimple,
  AccountsQuery,
  CodeItem,
  OutOfToleranceItem,
  OutOfToleranceParams,
  OutOfToleranceQuery,
  SimpleAccountsQuery,
} from './schemas.js';
import type { RebalancerAccountService } from './service.js';

const read = { privilege: Privilege.PortfolioRead };
const tags = ['Accounts'];
const root = '/v1/account/accounts';
const codes = (table: Record<number, string>) => Object.entries(table).map(([id, name]) => ({ id: Number(id), name }));

/**
 * The source system's account reads (`/v1/account/accounts…`), answered from the book. Static
 * segments (simple, the code tables, restrictedPlans) win over `:accountId` in the router.
 */
export const rebalancerAccountRoutes: FastifyPluginAsyncTypebox<{ accounts: RebalancerAccountService; plans: RestrictedPlanService }> = async (app, { accounts, plans }) => {
  app.get(
    root,
    {
      config: read,
      schema: {
        tags,
        summary: 'Active accounts with values, model, cash and restricted plan; paged with $top/$skip, filtered with search; the total is in X-Total-Count', description: 'Lists the firm\'s active accounts as the source system\'s rebalancer shows them: values, model, cash, set aside cash and restricted plan. Every match is answered unless `$top` is given.',
        querystring: AccountsQuery,
        response: responses({ 200: Type.Array(AccountListItem, TOTAL_COUNT_HEADER) }, [401, 403]),
      },
    },
    async (request, reply) => {
      const { search, $top, $skip } = request.query;
      const { pages, total } = await accounts.list(principalOf(request).firmId, { search, top: $top, skip: $skip });
      reply.header('X-Total-Count', String(total));
      return sendJsonArray(reply, pages);
    },
  );
  app.get(
    `${root}/simple`,
    {
      config: read,
      schema: {
        tags,
        summary: 'Active accounts in the short form (id, name, accountId, accountNumber, accountType…); search matches id, name, number or portfolio name', description: 'Lists active accounts in the short form clients use to find an account id; `search` matches the id, name, number or portfolio (registration) name.',
        querystring: SimpleAccountsQuery,
        response: responses({ 200: Type.Array(AccountSimple, TOTAL_COUNT_HEADER) }, [401, 403]),
      },
    },
    async (request, reply) => {
      const { search, $top, $skip, includevalue } = request.query;
      const { pages, total } = await accounts.simpleList(principalOf(request).firmId, { search, top: $top, skip: $skip }, includevalue === true);
      reply.header('X-Total-Count', String(total));
      return sendJsonArray(reply, pages);
    },
  );
  app.get(
    `${root}/simple/:accountId`,
    { config: read, schema: { tags, summary: 'One account in the short form (closed accounts too, with isDeleted 1)', description: 'Reads one account in the short form by id; a closed account is answered too, marked `isDeleted: 1`.', params: AccountParams, response: responses({ 200: AccountSimple }, [401, 403, 404]) } },
    async (request) => accounts.simpleOne(principalOf(request).firmId, request.params.accountId),
  );
  const codeTable = (path: string, summary: string, table: Record<number, string>) =>
    app.get(`${root}/${path}`, { config: read, schema: { tags: ['Set aside cash'], summary, description: `${summary}: the codes a set aside cash record uses, with their names, at the path the source system's client reads.`, response: responses({ 200: Type.Array(CodeItem) }, [401, 403]) } }, async () => codes(table));
  codeTable('asideCashAmountType', 'Set aside cash amount types (1 dollars, 2 percent)', CASH_AMOUNT_TYPES);
  codeTable('asideCashExpirationType', 'Set aside cash expiration types (1 Date, 2 Transaction, 3 None)', EXPIRATION_TYPES);
  codeTable('asideCashTransactionType', 'Transactions that expire a set aside record of Transaction expiry (1 Distribution / Merge Out, 3 Fee)', TRANSACTION_TYPES);
  codeTable('accountSetAsidePercentCalculationType', 'What a percent set aside is a percent of (0 managed, 1 total, 2 excluded value)', PERCENT_TYPES);
  app.get(
    `${root}/restrictedPlans`,
    { config: read, schema: { tags: ['Restricted plans'], summary: 'The firm\'s restricted plans: the same list as GET /v1/restrictedPlans', description: 'Lists the firm\'s restricted plans, with their securities and priorities, at the path the source system\'s client reads.', response: responses({ 200: Type.Array(PlanListItem) }, [401, 403]) } },
    async (request) => plans.list(principalOf(request).firmId),
  );
  app.get(
    `${root}/:accountId`,
    { config: read, schema: { tags, summary: 'One account with its summarySection (values, cash, set aside cash, cash available)', description: 'Reads one account with its figures: total and managed value, cash, set aside cash, cash reserve and the cash available to invest.', params: AccountParams, response: responses({ 200: AccountDetail }, [401, 403, 404]) } },
    async (request) => accounts.detail(principalOf(request).firmId, request.params.accountId),
  );
  app.get(
    `${root}/:accountId/holdings`,
    { config: read, schema: { tags, summary: 'The account\'s holdings with current, target and pending weights', description: 'Lists the account\'s holdings with their current, target and pending weights and values, as the rebalancer counts them.', params: AccountParams, response: responses({ 200: Type.Array(AccountHolding) }, [401, 403, 404]) } },
    async (request) => accounts.holdings(principalOf(request).firmId, request.params.accountId),
  );
  app.get(
    `${root}/:modelId/outOfTolerance/:assetId`,
    {
      config: read,
      schema: {
        tags,
        summary: 'Active accounts on the model whose weight in the security (with its equivalents) is outside its tolerance band', description: 'Lists the active accounts on a model whose weight in one security (with its equivalents) lies outside the model\'s tolerance band for it.',
        params: OutOfToleranceParams,
        querystring: OutOfToleranceQuery,
        response: responses({ 200: Type.Array(OutOfToleranceItem) }, [401, 403, 404]),
      },
    },
    async (request, reply) => sendJsonArray(reply, await accounts.outOfTolerance(principalOf(request), request.params.modelId, request.params.assetId, request.query.assetType)),
  );
};
