import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../http/problem.js';
import { IdSchema } from '../../http/ids.js';
import { principalOf } from '../../auth/hook.js';
import { Privilege } from '../../auth/privileges.js';
import type { TaxService } from './service.js';
import { Nullable } from '../../http/nullable.js';

const read = { privilege: Privilege.PortfolioRead };

const TaxLot = Type.Object({
  taxLotId: Type.Integer(),
  productId: Type.Integer(),
  ticker: Type.String(),
  shares: Type.Number(),
  costBasis: Type.Number({ description: 'Total cost of the lot, dollars' }),
  acquiredDate: Type.String({ format: 'date' }),
  term: Type.String({ description: 'Short, or Long from the day after the first anniversary' }),
  unrealizedGain: Nullable(Type.Number(), { description: 'Shares at the latest price less cost; null without a price' }),
});

const RealizedGains = Type.Object({
  clientId: Type.Integer(),
  year: Type.Integer(),
  shortTermGain: Type.Number({ description: 'Net of losses; a wash sale\'s disallowed loss is not counted' }),
  longTermGain: Type.Number(),
});

/** The tax side of the book (docs/tax-aware.md): lots per account, realized gains per household and year. */
export const taxRoutes: FastifyPluginAsyncTypebox<{ tax: TaxService }> = async (app, { tax }) => {
  app.get(
    '/Portfolio/Accounts/:accountId/TaxLots',
    {
      config: read,
      schema: {
        tags: ['Accounts'],
        summary: "An account's tax lots",
        description: "Every tax lot of the account's positions with its cost, acquisition date, term as of today and unrealized gain at the latest price, ordered by ticker and date. `productId` narrows it to one position. Tax-aware rebalancing relieves these lots; executing a trade updates them.",
        params: Type.Object({ accountId: IdSchema() }),
        querystring: Type.Object({ productId: Type.Optional(IdSchema()) }),
        response: responses(
          { 200: Type.Array(TaxLot, { examples: [[{ taxLotId: 7, productId: 1, ticker: 'VTI', shares: 100, costBasis: 23000, acquiredDate: '2026-09-25', term: 'Short', unrealizedGain: -3000 }]] }) },
          [400, 401, 403, 404],
        ),
      },
    },
    async (request) => tax.lots(principalOf(request).firmId, request.params.accountId, request.query.productId),
  );

  app.get(
    '/Portfolio/Clients/:clientId/RealizedGains',
    {
      config: read,
      schema: {
        tags: ['Households'],
        summary: "A household's realized gains of a year",
        description: 'Short-term and long-term gains (negative: losses) the household realized in the calendar year, from the trades recorded as executed in its taxable accounts. `year` defaults to the current one. A tax-aware rebalance counts them against its gains budget.',
        params: Type.Object({ clientId: IdSchema() }),
        querystring: Type.Object({ year: Type.Optional(Type.Integer({ minimum: 1900, maximum: 9999 })) }),
        response: responses({ 200: Type.Object(RealizedGains.properties, { examples: [{ clientId: 12, year: 2026, shortTermGain: -3000, longTermGain: 1250 }] }) }, [400, 401, 403, 404]),
      },
    },
    async (request) => tax.realizedGains(principalOf(request).firmId, request.params.clientId, request.query.year),
  );
};
