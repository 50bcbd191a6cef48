import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdSchema } from '../../http/ids.js';
import { COUNTED_PAGE_HEADERS, Skip, Top, sendPageHeaders } from '../../http/paging.js';
import { responses } from '../../http/problem.js';
import { principalOf } from '../../auth/hook.js';
import { Privilege } from '../../auth/privileges.js';
import { DoNotTradeBody, DoNotTradeQuery, DoNotTradeState, SleeveRegistrationInput, SleeveRegistrationRecord, SleeveTransferRecord } from './schemas.js';
import type { SleeveService } from './service.js';

const read = { privilege: Privilege.PortfolioRead };
const edit = { privilege: Privilege.PortfolioEdit };
const tags = ['Sleeves'];

/** Section 4.8, registration-level do-not-trade for sleeved registrations, and the cash transfers a registration rebalance plans. */
export const sleeveRoutes: FastifyPluginAsyncTypebox<{ sleeves: SleeveService }> = async (app, { sleeves }) => {
  app.get(
    '/Trading/Sleeve/Registrations/:registrationId',
    {
      config: read,
      schema: {
        tags,
        summary: 'A registration\'s sleeves with their current value and allocation',
        description: 'The sleeves of a sleeved registration: each sleeve account with its model, target percent and tolerance band, its current market value and the share of the registration it holds today.',
        params: Type.Object({ registrationId: IdSchema() }),
        response: responses({ 200: SleeveRegistrationRecord }, [401, 403, 404]),
      },
    },
    async (request) => sleeves.get(principalOf(request).firmId, request.params.registrationId),
  );

  app.post(
    '/Trading/Sleeve/Registrations/Action/Process',
    {
      config: edit,
      schema: {
        tags,
        summary: 'Add, change and remove Normal Sleeves (omitted ones are removed); answers the committed state',
        description: 'Sends the whole set of Normal Sleeves a registration should have: listed sleeves are added or changed, sleeves left out are removed, and targets must add up to 100%. A removed sleeve\'s positions (with their tax lots) and cash move to the Custodial Account sleeve; a sleeve with open orders, pending transactions or open sleeve transfers cannot be removed until they settle (400 naming it). All or nothing; the answer is the registration\'s sleeves as committed.',
        body: SleeveRegistrationInput,
        response: responses({ 200: SleeveRegistrationRecord }, [401, 403, 404]),
      },
    },
    async (request) => sleeves.process(principalOf(request), request.body),
  );

  app.put(
    '/Trading/Sleeve/Registrations/Batch',
    {
      config: edit,
      schema: {
        tags,
        summary: 'Set registration-level do-not-trade on several sleeved registrations, all or nothing',
        description: 'Turns the registration-level do-not-trade flag on or off for several sleeved registrations at once. If any registration is unknown or not sleeved nothing changes and the 400 names it.',
        querystring: DoNotTradeQuery,
        body: DoNotTradeBody,
        response: responses({ 200: Type.Array(DoNotTradeState) }, [401, 403]),
      },
    },
    async (request) => sleeves.updateDoNotTrade(principalOf(request), request.body, request.query.syncToEclipse),
  );

  app.get(
    '/Trading/TradeInstances/:tradeInstanceId/SleeveTransfers',
    {
      config: read,
      schema: {
        tags,
        summary: 'The cash a registration-level rebalance moves between sleeves (journals to book beside its trades)',
        description: 'A registration-level rebalance may move cash from one sleeve to another instead of trading; these are the journals to book alongside the trade instance\'s trades, one row per move, in id order. Paged with `$top` (1000 by default, at most 10000) and `$skip`; X-Total-Count carries how many there are, and a `Link` header names the next page while there is one.',
        params: Type.Object({ tradeInstanceId: IdSchema() }),
        querystring: Type.Object({ $top: Top(10_000, 1000), $skip: Skip() }),
        response: responses({ 200: { ...Type.Array(SleeveTransferRecord), ...COUNTED_PAGE_HEADERS } }, [400, 401, 403, 404]),
      },
    },
    async (request, reply) => {
      const { $top, $skip } = request.query;
      const { items, total } = await sleeves.transfers(principalOf(request).firmId, request.params.tradeInstanceId, { top: $top, skip: $skip });
      sendPageHeaders(request, reply, { top: $top, skip: $skip, returned: items.length, total });
      return items;
    },
  );
};
