import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../http/problem.js';
import { PageQuery } from '../http/paging.js';
import { validateBody } from '../http/validation.js';
import { DomainError } from '../shared/errors.js';
import { principalOf } from '../auth/hook.js';
import { Privilege } from '../auth/privileges.js';
import type { QuickTradeService } from './quick-trades.js';
import {
  BatchMessage,
  BatchStatus,
  QuickTradeCheck,
  QuickTradeChecked,
  QuickTradeRequest,
  RebalanceRequest,
  TradeInstanceRecord,
  TradeRecord,
} from './schemas.js';
import type { TradingService } from './service.js';
import { IdSchema } from '../http/ids.js';

const read = { privilege: Privilege.PortfolioRead };
const edit = { privilege: Privilege.PortfolioEdit };
const tags = ['Trading'];
const BatchParams = Type.Object({ batchProcessingId: IdSchema() });
const InstanceParams = Type.Object({ tradeInstanceId: IdSchema() });

/** Sections 4.4 and 4.5, plus read and cancel of trade instances (docs/decisions.md). */
export const tradingRoutes: FastifyPluginAsyncTypebox<{ trading: TradingService; quickTrades: QuickTradeService }> = async (app, { trading, quickTrades }) => {
  app.get(
    '/Trading/TradeDefinition',
    {
      config: read,
      schema: {
        tags,
        summary: 'A default rebalance request filled from the firm\'s settings',
        querystring: Type.Object({ routine: Type.String({ pattern: '^[Rr][Ee][Bb][Aa][Ll][Aa][Nn][Cc][Ee]$', description: 'rebalance' }) }),
        response: responses({ 200: RebalanceRequest }, [401, 403]),
      },
    },
    async (request) => trading.definition(principalOf(request).firmId),
  );

  app.post(
    '/Trading/GenerateTrades',
    {
      config: edit,
      schema: {
        tags,
        summary: 'Start a rebalance (routine Rebalance) or submit quick trades (routine QuickTrade); answers the batch processing id',
        querystring: Type.Object({ wait: Type.Boolean({ default: false }) }),
        body: Type.Object({ routine: Type.Optional(Type.String()) }, { description: 'A rebalance request or a quick-trade submission' }),
        response: responses({ 200: Type.Integer({ description: 'batch processing id' }) }, [401, 403]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const routine = request.body.routine ?? 'Rebalance';
      if (routine === 'QuickTrade') return quickTrades.submit(principal, validateBody<QuickTradeRequest>(QuickTradeRequest, request.body));
      if (routine !== 'Rebalance') {
        throw new DomainError('validation_failed', `routine: must be Rebalance or QuickTrade, got "${routine}"`, [{ field: 'routine', message: 'must be one of Rebalance, QuickTrade' }]);
      }
      return trading.generate(principal, validateBody<RebalanceRequest>(RebalanceRequest, request.body), request.query.wait);
    },
  );

  app.get(
    '/Trading/TradeGenerationStatus/:batchProcessingId',
    { config: read, schema: { tags, summary: 'The status of a rebalance batch: poll it until it is complete or failed', params: BatchParams, response: responses({ 200: Type.Object({ ...BatchStatus.properties, tradeInstanceId: Type.Integer() }) }, [401, 403, 404]) } },
    async (request) => trading.status(principalOf(request).firmId, request.params.batchProcessingId),
  );

  app.get(
    '/Trading/TradeGenerationStatus/:batchProcessingId/Message',
    { config: read, schema: { tags, summary: 'Batch message with one detail per account error or warning', params: BatchParams, response: responses({ 200: BatchMessage }, [401, 403, 404]) } },
    async (request) => trading.message(principalOf(request).firmId, request.params.batchProcessingId),
  );

  app.post(
    '/trading/validateimport/orders/list',
    {
      config: read,
      schema: {
        tags,
        summary: 'Validate quick trades item by item; nothing is stored',
        body: Type.Array(QuickTradeCheck, { minItems: 1, maxItems: 10_000 }),
        response: responses({ 200: Type.Array(QuickTradeChecked) }, [401, 403]),
      },
    },
    async (request) => quickTrades.validate(principalOf(request).firmId, request.body),
  );

  app.get(
    '/Trading/TradeInstances',
    {
      config: read,
      schema: {
        tags,
        summary: 'Trade instances, newest first',
        querystring: PageQuery,
        response: responses({ 200: Type.Array(TradeInstanceRecord) }, [401, 403]),
      },
    },
    async (request) => trading.instances(principalOf(request).firmId, request.query.$top, request.query.$skip),
  );

  app.get(
    '/Trading/TradeInstances/:tradeInstanceId',
    { config: read, schema: { tags, summary: 'One trade instance', params: InstanceParams, response: responses({ 200: TradeInstanceRecord }, [401, 403, 404]) } },
    async (request) => trading.instance(principalOf(request).firmId, request.params.tradeInstanceId),
  );

  app.get(
    '/Trading/TradeInstances/:tradeInstanceId/Trades',
    { config: read, schema: { tags, summary: 'The trades (open orders) of a trade instance', params: InstanceParams, response: responses({ 200: Type.Array(TradeRecord) }, [401, 403, 404]) } },
    async (request) => trading.trades(principalOf(request).firmId, request.params.tradeInstanceId),
  );

  app.post(
    '/Trading/TradeInstances/:tradeInstanceId/Action/Cancel',
    {
      config: edit,
      schema: { tags, summary: 'Cancel the open trades of a trade instance', params: InstanceParams, response: responses({ 200: TradeInstanceRecord }, [401, 403, 404, 409]) },
    },
    async (request) => trading.cancel(principalOf(request), request.params.tradeInstanceId),
  );
};
