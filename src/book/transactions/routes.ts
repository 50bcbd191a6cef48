import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { COUNTED_PAGE_HEADERS, PageQuery, sendPageHeaders } from '../../http/paging.js';
import { responses } from '../../http/problem.js';
import { IdSchema } from '../../http/ids.js';
import { principalOf } from '../../auth/hook.js';
import { Privilege } from '../../auth/privileges.js';
import { RecordedTransaction, TransactionInput, TransactionRecord } from './schemas.js';
import type { TransactionService } from './service.js';

const tags = ['Accounts'];
const Params = Type.Object({ accountId: IdSchema() });

/** Account transactions (distributions, merges out, fees, …) recorded through the portfolio API. */
export const transactionRoutes: FastifyPluginAsyncTypebox<{ transactions: TransactionService }> = async (app, { transactions }) => {
  app.get(
    '/Portfolio/Accounts/:accountId/Transactions',
    {
      config: { privilege: Privilege.PortfolioRead },
      schema: { tags, summary: 'The account\'s recorded transactions, newest first',
        description: 'The transactions recorded on the account (deposits, withdrawals, distributions, fees, journals), newest first. Paged with `$top` (100 by default, at most 1000) and `$skip`; X-Total-Count carries how many the account has, and a `Link` header names the next page while there is one. 404 when the account is not one of your firm\'s.',
        params: Params,
        querystring: PageQuery,
        response: responses({ 200: { ...Type.Array(TransactionRecord), ...COUNTED_PAGE_HEADERS } }, [400, 401, 403, 404]) },
    },
    async (request, reply) => {
      const { $top, $skip } = request.query;
      const { items, total } = await transactions.list(principalOf(request).firmId, request.params.accountId, { top: $top, skip: $skip });
      sendPageHeaders(request, reply, { top: $top, skip: $skip, returned: items.length, total });
      return items;
    },
  );
  app.post(
    '/Portfolio/Accounts/:accountId/Transactions',
    {
      config: { privilege: Privilege.PortfolioEdit },
      schema: {
        tags,
        summary: 'Record a transaction; Distribution, MergeOut and Fee expire the set aside cash waiting for them',
        description: 'Records one transaction on the account and answers it as stored. A Distribution, MergeOut or Fee also ends the set aside cash records that were waiting for that kind of transaction, so the rebalancer stops holding that cash back.',
        params: Params,
        body: TransactionInput,
        response: responses({ 200: RecordedTransaction }, [401, 403, 404]),
      },
    },
    async (request) => transactions.record(principalOf(request), request.params.accountId, request.body),
  );
};
