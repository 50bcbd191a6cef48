import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdSchema } from '../../http/ids.js';
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
        params: Type.Object({ tradeInstanceId: IdSchema() }),
        response: responses({ 200: Type.Array(SleeveTransferRecord) }, [401, 403, 404]),
      },
    },
    async (request) => sleeves.transfers(principalOf(request).firmId, request.params.tradeInstanceId),
  );
};
