import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendJsonWithArray } from '../http/json-array-stream.js';
import { responses } from '../http/problem.js';
import { CountQuery, PAGE_HEADERS, PageQuery, Skip, Top, sendPageHeaders } from '../http/paging.js';
import { principalOf } from '../auth/hook.js';
import { Privilege } from '../auth/privileges.js';
import type { QuickTradeService } from './quick-trades.js';
import {
  BatchMessage,
  MessageDetail,
  BatchStatus,
  ExecuteTrade,
  ExecutedTrade,
  HouseholdTaxSummary,
  QuickTradeCheck,
  QuickTradeChecked,
  GenerateTradesBody,
  RebalanceDefinition,
  TradeInstanceRecord,
  TradeRecord,
} from './schemas.js';
import type { TradingService } from './service.js';
import type { ExecutionService } from './execution.js';
import { IdSchema } from '../http/ids.js';

const read = { privilege: Privilege.PortfolioRead };
const edit = { privilege: Privilege.PortfolioEdit };
const tags = ['Trading'];
const BatchParams = Type.Object({ batchProcessingId: IdSchema() });
const InstanceParams = Type.Object({ tradeInstanceId: IdSchema() });

// Examples in the reference, taken from a rebalance of three demo accounts.
const AT = '2026-11-24T12:15:59.493Z';
const STATUS_EXAMPLE = {
  id: 1, alClientName: 'Summit Wealth Partners (Demo)', status: 'Complete', message: '', createdBy: 'demo.api', createdDate: AT, parentId: null,
  isDone: true, totalItems: 3, itemsCompleted: 3, errorCount: 0, warningCount: 0, details: null, tradeInstanceId: 1,
};
const TRADE_EXAMPLE = {
  id: 1, tradeInstanceId: 1, accountId: 1, accountNumber: '400000001', productId: 22, ticker: 'MUB', side: '2', action: 'SELL', tradeType: 'Shares',
  shares: 16, amount: 1705.28, price: 106.58, reason: 'cash below target: sell overweight MUB 40.5% vs 40.0%', explanation: 'cash below target: sell overweight MUB 40.5% vs 40.0%', status: 'Open', createdDate: AT,
};
const INSTANCE_EXAMPLE = { id: 1, routine: 'Rebalance', notes: null, status: 'Open', batchProcessingId: 1, tradeCount: 13, createdDate: AT, createdBy: 'demo.api', cancelledDate: null, cancelledBy: null };


/** Sections 4.4 and 4.5, plus read and cancel of trade instances (docs/decisions/trading-api.md). */
export const tradingRoutes: FastifyPluginAsyncTypebox<{ trading: TradingService; quickTrades: QuickTradeService; execution: ExecutionService }> = async (app, { trading, quickTrades, execution }) => {
  app.get(
    '/Trading/TradeDefinition',
    {
      config: read,
      schema: {
        tags,
        summary: 'A default rebalance request filled from the firm\'s settings',
        description: 'A complete rebalance request with your firm\'s defaults (trade limits, rounding, cash handling). Fill in `keys` with the accounts, registrations or households to rebalance and send it to GenerateTrades.',
        querystring: Type.Object({ routine: Type.String({ pattern: '^[Rr][Ee][Bb][Aa][Ll][Aa][Nn][Cc][Ee]$', description: 'rebalance' }) }),
        response: responses({ 200: RebalanceDefinition }, [401, 403]),
      },
    },
    async (request) => trading.definition(principalOf(request).firmId),
  );

  app.post(
    '/Trading/GenerateTrades',
    {
      // With ?wait=true the answer tells of the trades workers wrote, as the batch's status does.
      config: { ...edit, revealsOthersWrites: true },
      schema: {
        tags,
        summary: 'Start a rebalance (routine Rebalance) or submit quick trades (routine QuickTrade); answers the batch processing id',
        description: 'Starts a batch and answers its id at once: with routine Rebalance, the rebalancer brings each named account (or every account of the named registrations or households) back to its model; with routine QuickTrade, the listed trades are placed as given. Poll TradeGenerationStatus with the id. With `?wait=true` the call answers when the batch is done (or after REBALANCE_WAIT_SECONDS, with the batch still running).',
        querystring: Type.Object({
          wait: Type.Boolean({ default: false, description: 'true: answer when the batch is done (or after REBALANCE_WAIT_SECONDS, with the batch still running)' }),
        }),
        body: GenerateTradesBody,
        response: responses({ 200: Type.Integer({ description: 'batch processing id', examples: [1] }) }, [400, 401, 403]),
      },
      // Spec 2.9 lists routine without requiring it: a body that leaves it out stays a rebalance.
      preValidation: async (request) => {
        const body = request.body as Record<string, unknown> | null;
        if (body !== null && typeof body === 'object' && !Array.isArray(body) && body.routine === undefined) body.routine = 'Rebalance';
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const body = request.body;
      if (body.routine === 'QuickTrade') return quickTrades.submit(principal, body);
      return trading.generate(principal, body, request.query.wait);
    },
  );

  app.get(
    '/Trading/TradeGenerationStatus/:batchProcessingId',
    // Complete tells of the trades workers wrote: every node has heard of them before it is said.
    { config: { ...read, revealsOthersWrites: true }, schema: { tags, summary: 'The status of a rebalance batch: poll it until it is complete or failed',
        description: 'Where a batch stands: status Queued, Running, Complete or Failed, itemsCompleted of totalItems, the number of accounts with errors and warnings, and the trade instance holding its trades once done.', params: BatchParams, response: responses({ 200: Type.Object({ ...BatchStatus.properties, tradeInstanceId: Type.Integer() }, { examples: [STATUS_EXAMPLE] }) }, [401, 403, 404]) } },
    async (request) => trading.status(principalOf(request).firmId, request.params.batchProcessingId),
  );

  app.get(
    '/Trading/TradeGenerationStatus/:batchProcessingId/Message',
    {
      config: read,
      schema: {
        tags,
        summary: 'Batch message with one detail per account error or warning, a page of details at a time',
        description:
          'The message a batch leaves: a subject and summary, and one detail per account that had an error or a warning (and, for tax-aware batches, each Info), saying what and why. The details are paged: 1000 by default, `$top` up to 10000, `$skip` for the next; X-Total-Count carries how many details the batch has, and a `Link` header names the next page while there is one. A failed batch keeps every message (a batch naming 700,000 unknown accounts has 700,000 details): read them page by page.',
        params: BatchParams,
        querystring: Type.Object({ $top: Top(10_000, 1000), $skip: Skip() }),
        response: responses({ 200: { ...BatchMessage, ...PAGE_HEADERS } }, [401, 403, 404]),
      },
    },
    async (request, reply) => {
      const { $top, $skip } = request.query;
      const { head, details, total } = await trading.message(principalOf(request).firmId, request.params.batchProcessingId, { top: $top, skip: $skip });
      sendPageHeaders(request, reply, { top: $top, skip: $skip, returned: Math.max(0, Math.min($top, total - $skip)), total });
      return sendJsonWithArray(reply, head, 'details', details, MessageDetail);
    },
  );

  app.get(
    '/Trading/TradeGenerationStatus/:batchProcessingId/TaxSummary',
    {
      config: read,
      schema: {
        tags,
        summary: 'Per-household tax summary of a tax-aware rebalance batch',
        description:
          'For a batch run with taxOptions: one line per household with the estimated short-term and long-term gain (negative: a loss) its planned sells realize, the losses harvested, the buys the wash-sale rules moved to an equivalent or left in cash, and the sells the gains budget cut short. Empty for a batch without taxOptions. In household id order, paged with `$top` (at most 1000) and `$skip`: a page shorter than `$top` is the last (a batch of 100,000 accounts has about 50,000 households). `householdId` keeps one household\'s line; with `$count=true` the X-Total-Count header carries how many lines match. See the tax-aware rebalancing guide (docs/tax-aware.md).',
        params: BatchParams,
        querystring: Type.Object({ ...PageQuery.properties, ...CountQuery.properties, householdId: Type.Optional(IdSchema({ description: "Only this household's line" })) }),
        response: responses(
          { 200: Type.Array(HouseholdTaxSummary, { examples: [[{ householdId: 12, shortTermGain: -3000, longTermGain: 1000, harvestedLosses: 3000, washSaleMoves: 1, budgetCuts: 1 }]] }) },
          [401, 403, 404],
        ),
      },
    },
    async (request, reply) => {
      const { $top, $skip, $count, householdId } = request.query;
      const { items, total } = await trading.taxSummary(principalOf(request).firmId, request.params.batchProcessingId, { top: $top, skip: $skip, householdId, count: $count });
      sendPageHeaders(request, reply, { top: $top, skip: $skip, returned: items.length, total });
      return items;
    },
  );

  app.post(
    '/trading/validateimport/orders/list',
    {
      config: read,
      schema: {
        tags,
        summary: 'Validate quick trades item by item; nothing is stored',
        description: 'Checks a list of quick trades the way a QuickTrade submission would (account, product, side, amount or shares, trading blocks) and answers each with its problems. Nothing is stored or traded.',
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
        description: 'The trade instances of your firm, newest first: one per finished batch that produced trades, with its routine, status and trade count. Paged with `$top` (100 by default, at most 1000) and `$skip`; with `$count=true` the X-Total-Count header carries how many there are, and a `Link` header names the next page while there is one.',
        querystring: Type.Object({ ...PageQuery.properties, ...CountQuery.properties }),
        response: responses({ 200: { ...Type.Array(TradeInstanceRecord, { examples: [[INSTANCE_EXAMPLE]] }), ...PAGE_HEADERS } }, [401, 403]),
      },
    },
    async (request, reply) => {
      const { $top, $skip, $count } = request.query;
      const { items, total } = await trading.instances(principalOf(request).firmId, { top: $top, skip: $skip, count: $count });
      sendPageHeaders(request, reply, { top: $top, skip: $skip, returned: items.length, total });
      return items;
    },
  );

  app.get(
    '/Trading/TradeInstances/:tradeInstanceId',
    { config: read, schema: { tags, summary: 'One trade instance',
        description: 'One trade instance by id. 404 when your firm has no such instance.', params: InstanceParams, response: responses({ 200: TradeInstanceRecord }, [401, 403, 404]) } },
    async (request) => trading.instance(principalOf(request).firmId, request.params.tradeInstanceId),
  );

  app.get(
    '/Trading/TradeInstances/:tradeInstanceId/Trades',
    {
      config: read,
      schema: {
        tags,
        summary: 'The trades (open orders) of a trade instance, a page at a time',
        description:
          'The trades a rebalance or quick-trade batch produced: account, product, buy or sell, shares or amount, price and the reason the rebalancer gives for each. In id order, paged with `$top` (100 by default, at most 1000) and `$skip`: X-Total-Count carries how many trades the instance has (a rebalance of 100,000 accounts writes about a million), and while the page leaves trades out a `Link` header names the next page. `accountId` keeps one account\'s trades; their count comes with `$count=true`.',
        params: InstanceParams,
        querystring: Type.Object({ ...PageQuery.properties, ...CountQuery.properties, accountId: Type.Optional(IdSchema({ description: "Only this account's trades" })) }),
        response: responses({ 200: { ...Type.Array(TradeRecord, { examples: [[TRADE_EXAMPLE]] }), ...PAGE_HEADERS } }, [401, 403, 404]),
      },
    },
    async (request, reply) => {
      const { $top, $skip, $count, accountId } = request.query;
      const { items, total } = await trading.trades(principalOf(request).firmId, request.params.tradeInstanceId, { top: $top, skip: $skip, accountId, count: $count });
      sendPageHeaders(request, reply, { top: $top, skip: $skip, returned: items.length, total });
      return items;
    },
  );

  app.post(
    '/Trading/TradeInstances/:tradeInstanceId/Action/Cancel',
    {
      config: edit,
      schema: { tags, summary: 'Cancel the open trades of a trade instance',
        description: 'Cancels every open trade of the instance and answers it with status Cancelled (cancelling again changes nothing). 409 while its batch is still running.', params: InstanceParams, response: responses({ 200: TradeInstanceRecord }, [401, 403, 404, 409]) },
    },
    async (request) => trading.cancel(principalOf(request), request.params.tradeInstanceId),
  );

  app.post(
    '/Trading/TradeInstances/:tradeInstanceId/Trades/:tradeId/Action/Execute',
    {
      config: edit,
      schema: {
        tags,
        summary: 'Record an open trade as executed',
        description:
          "Records the fill of an open trade: the position and the account's cash move, a sell relieves its tax lots (those it planned when it fills whole, else by the lot method of the run that made it, FIFO for trades made without taxOptions), a sell in a taxable account stores its realized gains for the household's year, and a buy becomes a new lot. A loss sale within 30 days after a buy of the same wash-sale group in the household adds the disallowed loss to the bought lot's cost and carries the sold lot's holding period. The body is optional: shares (at most the trade's), price and tradeDate default to the trade's own and today. 409 when the trade is not open or the account no longer holds the shares.",
        params: Type.Object({ tradeInstanceId: IdSchema(), tradeId: IdSchema() }),
        body: ExecuteTrade,
        response: responses({ 200: ExecutedTrade }, [400, 401, 403, 404, 409]),
      },
      // The body may be left out: the fill is then the trade as planned.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => execution.execute(principalOf(request).firmId, request.params.tradeInstanceId, request.params.tradeId, request.body),
  );
};
