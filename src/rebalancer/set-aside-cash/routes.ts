import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendJsonArray } from '../../http/json-array-stream.js';
import { TOTAL_COUNT_HEADER, WholeListQuery } from '../../http/paging.js';
import { responses } from '../../http/problem.js';
import { principalOf } from '../../auth/hook.js';
import { Privilege } from '../../auth/privileges.js';
import type { CashNeedsService } from '../../set-aside-cash/cash-needs.js';
import { AccountParams, CashNeed, DeleteResult, RecordParams, SetAsideDetail, SetAsideInput, SetAsideListItem } from '../../set-aside-cash/schemas.js';
import type { SetAsideService } from '../../set-aside-cash/service.js';

const read = { privilege: Privilege.PortfolioRead };
const edit = { privilege: Privilege.PortfolioEdit };
const tags = ['Set aside cash'];
// Section 4.6 spells the segment `asidecash`.
const root = '/v1/account/accounts/:eclipseAccountId/asidecash';

export const setAsideRoutes: FastifyPluginAsyncTypebox<{ setAsides: SetAsideService; cashNeeds: CashNeedsService }> = async (app, { setAsides, cashNeeds }) => {
  app.get(
    root,
    { config: read, schema: { tags, summary: 'The account\'s set aside cash records (deleted ones left out)',
        description: 'The cash the account keeps out of rebalancing: each record\'s amount or percentage, its period or the transaction it waits for, and whether it is still in force.', params: AccountParams, response: responses({ 200: Type.Array(SetAsideListItem) }, [401, 403, 404]) } },
    async (request) => setAsides.list(principalOf(request).firmId, request.params.eclipseAccountId),
  );
  app.get(
    `${root}/:setAsideCashId`,
    { config: read, schema: { tags, summary: 'One set aside cash record',
        description: 'One set aside cash record of the account. 404 when the account or record is not your firm\'s.', params: RecordParams, response: responses({ 200: SetAsideDetail }, [401, 403, 404]) } },
    async (request) => setAsides.get(principalOf(request).firmId, request.params.eclipseAccountId, request.params.setAsideCashId),
  );
  app.post(
    root,
    { config: edit, schema: { tags, summary: 'Create a set aside cash record',
        description: 'Keeps an amount (or a percentage of the account\'s value) out of rebalancing, from a start date until an end date, or until a transaction of a given kind uses it. Answers the record.', params: AccountParams, body: SetAsideInput, response: responses({ 200: SetAsideDetail }, [401, 403, 404]) } },
    async (request) => setAsides.create(principalOf(request), request.params.eclipseAccountId, request.body),
  );
  app.put(
    `${root}/:setAsideCashId`,
    { config: edit, schema: { tags, summary: 'Rewrite a set aside cash record from the create body',
        description: 'Replaces the record with the fields sent, as create would build it. Answers the record as stored.', params: RecordParams, body: SetAsideInput, response: responses({ 200: SetAsideDetail }, [401, 403, 404]) } },
    async (request) => setAsides.update(principalOf(request), request.params.eclipseAccountId, request.params.setAsideCashId, request.body),
  );
  app.delete(
    `${root}/:setAsideCashId`,
    { config: edit, schema: { tags, summary: 'Remove a set aside cash record',
        description: 'Deletes the record; the cash becomes available to the next rebalance.', params: RecordParams, response: responses({ 200: DeleteResult }, [401, 403, 404]) } },
    async (request) => setAsides.remove(principalOf(request), request.params.eclipseAccountId, request.params.setAsideCashId),
  );
  app.get(
    '/v1/account/cashneeds',
    {
      config: read,
      schema: {
        tags,
        summary: 'Accounts whose cash is below their protected cash plus model cash target, largest shortfall first',
        description:
          'Accounts that need cash raised: their cash is below what set aside cash protects plus the model\'s cash target. Largest shortfall first, with the account\'s value, cash, protected cash and model cash target. Every need is answered unless `$top` is given; the number of needs is in X-Total-Count.',
        querystring: WholeListQuery,
        response: responses({ 200: Type.Array(CashNeed, TOTAL_COUNT_HEADER) }, [400, 401, 403]),
      },
    },
    async (request, reply) => {
      const { total, pages } = await cashNeeds.report(principalOf(request).firmId, { top: request.query.$top, skip: request.query.$skip });
      reply.header('X-Total-Count', String(total));
      return sendJsonArray(reply, pages);
    },
  );
};
