import { Type, type Static } from 'typebox';
import { IdSchema } from '../http/ids.js';
import { literals } from '../http/literals.js';
import { Nullable } from '../http/nullable.js';


export const REASONS = ['NeedReview', 'Withdraw', 'Add', 'Withdraw100Pct', 'TaxLossHarvest'] as const;
export const ENTITIES = ['Account', 'TradeGroup', 'ModelAgg'] as const;
const Money = Type.Number({ minimum: 0, maximum: 1e13 });

/** The tax-aware extension of the request (docs/tax-aware.md); absent, taxes play no part. */
export const TaxOptions = Type.Object(
  {
    lotSelection: Type.Optional(literals(['MinTax', 'HIFO', 'FIFO'] as const, 'Which lots a sell relieves first (default MinTax)')),
    avoidWashSales: Type.Optional(Type.Boolean({ description: 'Keep every account of a household clear of wash sales (default true)' })),
    maxShortTermGain: Type.Optional(Nullable(Money, { description: 'Net short-term gain a household may realize this calendar year, gains already realized included; null: no limit' })),
    maxLongTermGain: Type.Optional(Nullable(Money, { description: 'Net long-term gain a household may realize this calendar year; null: no limit' })),
    harvestLosses: Type.Optional(
      Nullable(
        Type.Object(
          {
            minLossDollars: Money,
            minLossPercent: Type.Number({ minimum: 0, maximum: 100 }),
          },
          { additionalProperties: false, description: 'Harvest the lots whose loss reaches both thresholds' },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);

/** Section 2.9: the rebalance request (trade definition). */
export const RebalanceRequest = Type.Object({
  routine: Type.Optional(literals(['Rebalance'] as const)),
  reason: literals(REASONS),
  entity: literals(ENTITIES),
  keys: Type.Array(IdSchema(), { minItems: 1, maxItems: 1_000_000 }),
  amounts: Type.Optional(Nullable(Type.Array(Money, { maxItems: 1_000_000 }))),
  level: Type.Optional(literals(['Account', 'Registration'] as const)),
  maxTrades: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  minTradePercent: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  minTradeAmount: Type.Optional(Money),
  exactTrades: Type.Optional(Type.Boolean()),
  assetValues: Type.Optional(literals(['PendingTransactionsAndOrders', 'Pending', 'Current', 'UseDefault'] as const)),
  useProductSubstitution: Type.Optional(literals(['Use', 'Ignore'] as const)),
  includeCustodialCash: Type.Optional(Type.Boolean()),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 4000 }))),
  roundingLogic: Type.Optional(literals(['Default', 'LowestPrice', 'None'] as const)),
  disableRealTimePrices: Type.Optional(Type.Boolean()),
  nsccTransactionType: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
  taxOptions: Type.Optional(Nullable(TaxOptions)),
});
export type RebalanceRequest = Static<typeof RebalanceRequest>;

/** Section 2.11: a trade to submit. */
export const QuickTrade = Type.Object({
  accountId: IdSchema(),
  productId: IdSchema(),
  tradeType: literals(['Dollars', 'Shares'] as const),
  amount: Type.Number({ exclusiveMinimum: 0, maximum: 1e13 }),
  side: literals(['1', '2'] as const, '1 buy, 2 sell'),
});
export const QuickTradeRequest = Type.Object({
  routine: literals(['QuickTrade'] as const),
  trades: Type.Array(QuickTrade, { minItems: 1, maxItems: 10_000 }),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 4000 }))),
});
export type QuickTradeRequest = Static<typeof QuickTradeRequest>;

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
});

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
