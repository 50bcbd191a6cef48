import { Type, type Static } from 'typebox';
import { IdSchema } from '../http/ids.js';
import { literals } from '../http/literals.js';
import { Nullable } from '../http/nullable.js';
import { REBALANCE_DEFAULTS, TAX_DEFAULTS } from '../engine/index.js';


export const REASONS = ['NeedReview', 'Withdraw', 'Add', 'Withdraw100Pct', 'TaxLossHarvest'] as const;
export const ENTITIES = ['Account', 'TradeGroup', 'ModelAgg'] as const;
const Money = (description: string) => Type.Number({ minimum: 0, maximum: 1e13, description });
const T = TAX_DEFAULTS;
const D = REBALANCE_DEFAULTS;

/** Both thresholds of a harvest (design tax-aware.md: both required, 0 allowed). */
export const HarvestLosses = Type.Object(
  {
    minLossDollars: Money('A lot is harvested when its loss is at least this many dollars (0: any loss)'),
    minLossPercent: Type.Number({ minimum: 0, maximum: 100, description: 'and at least this percent of its cost (0: any loss)' }),
  },
  { additionalProperties: false, description: 'Harvest the lots whose loss reaches both thresholds, buying a replacement that keeps the exposure; null: no harvesting' },
);

/**
 * The tax-aware extension of the request (docs/tax-aware.md); absent, taxes play no part. Closed
 * (`additionalProperties: false`): a misspelt option is a 400 naming it, never a run with the default.
 */
export const TaxOptions = Type.Object(
  {
    lotSelection: Type.Optional(literals(['MinTax', 'HIFO', 'FIFO'] as const, 'Which lots a sell relieves first: MinTax (losses, then the smallest gains, long-term first), HIFO (highest cost), FIFO (oldest)', T.lotSelection)),
    avoidWashSales: Type.Optional(Type.Boolean({ default: T.avoidWashSales, description: 'Keep every account of a household clear of wash sales' })),
    maxShortTermGain: Type.Optional(Nullable(Money('Net short-term gain a household may realize this calendar year, gains already realized included; null: no limit'), { default: T.maxShortTermGain })),
    maxLongTermGain: Type.Optional(Nullable(Money('Net long-term gain a household may realize this calendar year, gains already realized included; null: no limit'), { default: T.maxLongTermGain })),
    harvestLosses: Type.Optional(Nullable(HarvestLosses, { default: T.harvestLosses })),
  },
  { additionalProperties: false, description: 'Tax-aware rebalancing (lots, gains budget, wash sales, harvesting); absent or null: taxes play no part' },
);

/** Section 2.9: the rebalance request (trade definition); every default is REBALANCE_DEFAULTS'. */
export const RebalanceRequest = Type.Object(
  {
    routine: literals(['Rebalance'] as const, 'Rebalance (a body without routine is a rebalance)'),
    reason: literals(REASONS, 'NeedReview: back to tolerance; Withdraw: raise `amounts` in cash; Add: spend `amounts`; Withdraw100Pct: sell everything; TaxLossHarvest: harvest losses only (needs taxOptions.harvestLosses)'),
    entity: literals(ENTITIES, 'What `keys` name: Account ids, TradeGroup ids or ModelAgg (aggregate model) ids; Add and Withdraw take Account only'),
    keys: Type.Array(IdSchema(), { minItems: 1, maxItems: 1_000_000, description: 'Ids of the entity to rebalance' }),
    amounts: Type.Optional(Nullable(Type.Array(Money('Dollars'), { maxItems: 1_000_000 }), { description: 'Withdraw and Add: the dollars of each key, amounts[i] for keys[i]; ignored for other reasons' })),
    level: Type.Optional(literals(['Account', 'Registration'] as const, 'Account, or Registration: every sleeve of the named accounts\' registrations back to tolerance together', D.level)),
    maxTrades: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: D.maxTrades, description: 'Most trades per account; the rest are dropped with a message' })),
    minTradePercent: Type.Optional(Type.Number({ minimum: 0, maximum: 100, default: D.minTradePercent, description: 'Above 0: a sell of a smaller percent of the position is dropped' })),
    minTradeAmount: Type.Optional(Type.Number({ minimum: 0, maximum: 1e13, default: D.minTradeAmount, description: 'Trades below this many dollars are dropped' })),
    exactTrades: Type.Optional(Type.Boolean({ default: D.exactTrades, description: 'true: trade to the exact model targets, ignoring tolerances' })),
    assetValues: Type.Optional(
      literals(['PendingTransactionsAndOrders', 'Pending', 'Current', 'UseDefault'] as const, 'What the holdings count: pending transactions and open orders, pending transactions only, completed transactions only, or the firm default', D.assetValues),
    ),
    useProductSubstitution: Type.Optional(literals(['Use', 'Ignore'] as const, "Use or Ignore the model's product substitutions", D.useProductSubstitution)),
    includeCustodialCash: Type.Optional(Type.Boolean({ default: D.includeCustodialCash, description: 'false: custodial cash is ignored' })),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 4000 }), { description: 'Attached to the trade instance the batch creates' })),
    roundingLogic: Type.Optional(literals(['Default', 'LowestPrice', 'None'] as const, 'Default (the system decides), LowestPrice (round up the lowest-priced equity first) or None (fractional shares)', D.roundingLogic)),
    disableRealTimePrices: Type.Optional(Type.Boolean({ default: D.disableRealTimePrices, description: 'true: real-time prices are not used even where the firm enables them' })),
    nsccTransactionType: Type.Optional(Nullable(Type.String({ maxLength: 50 }), { description: 'Carried as sent' })),
    taxOptions: Type.Optional(Nullable(TaxOptions)),
  },
  { description: 'A rebalance (spec 2.9); TradeDefinition answers one filled with the defaults' },
);
export type RebalanceRequest = Static<typeof RebalanceRequest>;

/** TradeDefinition's answer: a rebalance request to complete, its keys still empty. */
export const RebalanceDefinition = Type.Object(
  {
    ...RebalanceRequest.properties,
    keys: Type.Array(IdSchema(), { maxItems: 0, description: 'Empty: fill in the ids of the entity to rebalance' }),
    amounts: Type.Array(Money('Dollars'), { maxItems: 0, description: 'Empty: for Add and Withdraw, fill in one amount per key' }),
  },
  { description: 'A rebalance request filled with the defaults and the firm\'s settings' },
);

/** Section 2.11: a trade to submit. */
export const QuickTrade = Type.Object({
  accountId: IdSchema({ description: 'The account to trade in' }),
  productId: IdSchema({ description: 'The product to buy or sell' }),
  tradeType: literals(['Dollars', 'Shares'] as const, 'Whether amount is dollars or shares'),
  amount: Type.Number({ exclusiveMinimum: 0, maximum: 1e13, description: 'Dollars or shares, as tradeType says' }),
  side: literals(['1', '2'] as const, '1 buy, 2 sell'),
});
export const QuickTradeRequest = Type.Object(
  {
    routine: literals(['QuickTrade'] as const, 'QuickTrade'),
    trades: Type.Array(QuickTrade, { minItems: 1, maxItems: 10_000, description: 'The trades to place as given' }),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 4000 }), { description: 'Attached to the trade instance' })),
  },
  { description: 'Quick trades (spec 2.11), placed as given' },
);
export type QuickTradeRequest = Static<typeof QuickTradeRequest>;

/**
 * The body of GenerateTrades: a rebalance or quick trades, told apart by `routine` (one path
 * serves both, spec 4.4). A discriminated oneOf: Ajv validates the branch `routine` names, so a
 * 400 names that branch's fields only, and the OpenAPI document and the typed client see the union.
 */
export const GenerateTradesBody = Type.Unsafe<RebalanceRequest | QuickTradeRequest>({
  // Ajv's discriminator lets a non-object through (it reads the tag of whatever it is given).
  type: 'object',
  oneOf: [RebalanceRequest, QuickTradeRequest],
  discriminator: { propertyName: 'routine' },
  description: 'A rebalance request (routine Rebalance, as TradeDefinition answers it) or quick trades (routine QuickTrade)',
  examples: [{ routine: 'Rebalance', reason: 'NeedReview', entity: 'Account', keys: [1, 2, 3], level: 'Account' }],
});

/** Section 2.11: a validation input item; exactly one of dollars or shares. */
export const QuickTradeCheck = Type.Object({
  accountId: Type.Integer(),
  ticker: Type.String({ maxLength: 20 }),
  action: Type.String({ maxLength: 10, description: 'BUY or SELL' }),
  dollars: Type.Optional(Nullable(Type.Number())),
  shares: Type.Optional(Nullable(Type.Number())),
});
export type QuickTradeCheck = Static<typeof QuickTradeCheck>;
export const QuickTradeChecked = Type.Object({
  ...QuickTradeCheck.properties,
  accountNumber: Nullable(Type.String()),
  productId: Nullable(Type.Integer()),
  dollars: Nullable(Type.Number()),
  shares: Nullable(Type.Number()),
  isValid: Type.Boolean(),
  message: Type.String(),
  tradeType: Nullable(literals(['Dollars', 'Shares'] as const)),
  navPrice: Nullable(Type.Number()),
  side: Nullable(literals(['1', '2'] as const)),
  amount: Nullable(Type.Number()),
});
export type QuickTradeChecked = Static<typeof QuickTradeChecked>;

/** Section 2.10. */
export const BatchStatus = Type.Object({
  id: Type.Integer(),
  alClientName: Type.String(),
  status: Type.String({ description: 'Running, then Complete or Failed' }),
  message: Type.String(),
  createdBy: Type.String(),
  createdDate: Type.String(),
  parentId: Nullable(Type.Integer()),
  isDone: Type.Boolean(),
  totalItems: Type.Integer(),
  itemsCompleted: Type.Integer(),
  errorCount: Type.Integer(),
  warningCount: Type.Integer(),
  details: Type.Null(),
});

export const MessageDetail = Type.Object({
  severityCode: Type.Integer(),
  severity: Type.String(),
  message: Type.String(),
  entityEnum: Type.String(),
  entityId: Nullable(Type.Integer()),
});
export type MessageDetail = Static<typeof MessageDetail>;
export const BatchMessage = Type.Object({
  entityId: Nullable(Type.Integer()),
  entityEnum: Type.String(),
  severity: Type.String(),
  severityCode: Type.Integer(),
  receivedDate: Type.String(),
  subject: Type.String(),
  message: Type.String(),
  details: Type.Array(MessageDetail),
});

export const TradeRecord = Type.Object({
  id: Type.Integer(),
  tradeInstanceId: Type.Integer(),
  accountId: Type.Integer(),
  accountNumber: Type.String(),
  productId: Type.Integer(),
  ticker: Type.String(),
  side: Type.String({ description: '1 buy, 2 sell' }),
  action: Type.String({ description: 'BUY or SELL' }),
  tradeType: Type.String(),
  shares: Type.Number(),
  amount: Type.Number({ description: 'Estimated dollars' }),
  price: Type.Number(),
  reason: Type.String(),
  explanation: Type.String({ description: 'Why the trade exists, as a sentence' }),
  status: Type.String({ description: 'Open, Cancelled or Executed' }),
  createdDate: Type.String(),
  lots: Type.Optional(
    Type.Array(
      Type.Object({
        taxLotId: Nullable(Type.Integer()),
        shares: Type.Number(),
        costBasis: Type.Number({ description: 'Cost of the shares relieved, dollars' }),
        acquiredDate: Type.String(),
        term: Type.String({ description: 'Short or Long' }),
        estimatedGain: Type.Number(),
        washSale: Type.Optional(Type.Boolean({ description: 'A forced sale at a loss within 30 days of a buy: the loss will be disallowed' })),
      }),
      { description: 'Tax-aware sells in taxable accounts: the lots relieved, in order' },
    ),
  ),
  estimatedShortTermGain: Type.Optional(Type.Number()),
  estimatedLongTermGain: Type.Optional(Type.Number()),
});

export const HouseholdTaxSummary = Type.Object({
  householdId: Type.Integer(),
  shortTermGain: Type.Number({ description: 'Estimated net short-term gain of the batch (negative: a loss)' }),
  longTermGain: Type.Number(),
  harvestedLosses: Type.Number(),
  washSaleMoves: Type.Integer({ description: 'Buys moved to an equivalent or left in cash by the wash-sale rules' }),
  budgetCuts: Type.Integer({ description: 'Sells cut short by the gains budget' }),
});
export const TradeInstanceRecord = Type.Object({
  id: Type.Integer(),
  routine: Type.String(),
  notes: Nullable(Type.String()),
  status: Type.String(),
  batchProcessingId: Nullable(Type.Integer()),
  tradeCount: Type.Integer(),
  createdDate: Type.String(),
  createdBy: Type.String(),
  cancelledDate: Nullable(Type.String()),
  cancelledBy: Nullable(Type.String()),
});

/** The fill of an open trade; every field defaults to the trade's own (and today). */
export const ExecuteTrade = Type.Object({
  shares: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1e12, description: "Shares filled, at most the trade's" })),
  price: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1e9 })),
  tradeDate: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD, not in the future' })),
}, { additionalProperties: false, description: 'The fill; an unknown field is refused rather than ignored' });

export const ExecutedTrade = Type.Object({
  tradeId: Type.Integer(),
  status: Type.String(),
  shares: Type.Number(),
  price: Type.Number(),
  amount: Type.Number(),
  tradeDate: Type.String(),
  realized: Type.Array(
    Type.Object({
      acquiredDate: Type.String(),
      shares: Type.Number(),
      proceeds: Type.Number(),
      costBasis: Type.Number(),
      term: Type.String(),
      gain: Type.Number(),
      disallowedLoss: Type.Number({ description: 'Loss a wash sale disallows (moved into the replacement lot)' }),
    }),
    { description: 'Taxable sells: the gain of each lot slice sold' },
  ),
});
