import { type Kysely, sql } from 'kysely';
import type { BulkColumn, BulkWrite } from '../db/bulk-insert.js';
import { copyWrite } from '../db/copy-rows.js';
import type { Database } from '../db/schema.js';
import type { LotSelection } from '../engine/index.js';

/* What a rebalance or a quick trade writes, and the writes both share: the instance, its trades and their count. */

export interface NewTrade {
  accountId: number;
  productId: number;
  side: 'Buy' | 'Sell';
  tradeType: 'Dollars' | 'Shares';
  sharesMicros: number;
  amountCents: number;
  priceMicros: number;
  reason: string;
  /** Tax-aware sells in taxable accounts: the planned lots as JSON, and the estimated gains. */
  lots?: string | null;
  shortTermGainCents?: number | null;
  longTermGainCents?: number | null;
}

/**
 * A trade as the writer stores it, the trades table's columns in order: a chunk's trades cross
 * from SQLite's planning thread as these (a list of arrays copies in a fifth of the time a list of
 * objects does), and the writer's statements take them as they are. The last three are null but
 * in a tax-aware sell.
 */
export type TradeRow = [
  accountId: number,
  productId: number,
  side: 'Buy' | 'Sell',
  tradeType: 'Dollars' | 'Shares',
  sharesMicros: number,
  amountCents: number,
  priceMicros: number,
  reason: string,
  lots: string | null,
  shortTermGainCents: number | null,
  longTermGainCents: number | null,
];

export function tradeRow(t: NewTrade): TradeRow {
  return [t.accountId, t.productId, t.side, t.tradeType, t.sharesMicros, t.amountCents, t.priceMicros, t.reason, t.lots ?? null, t.shortTermGainCents ?? null, t.longTermGainCents ?? null];
}

/** One household's line of a tax-aware batch's summary. */
export interface NewTaxSummary {
  householdId: number;
  shortTermGainCents: number;
  longTermGainCents: number;
  harvestedLossCents: number;
  washSaleMoves: number;
  budgetCuts: number;
}

export interface NewMessage {
  accountId: number | null;
  severity: 'Error' | 'Warning' | 'Info';
  code: string;
  message: string;
}

/** Cash a registration-level rebalance moves into (+) or out of (−) a sleeve. */
export interface NewTransfer {
  registrationId: number;
  accountId: number;
  amountCents: number;
  currentPct: number;
  targetPct: number;
  outOfBand: boolean;
}

export const INSERT_ROWS = 500;

const TRADE_COLUMNS: BulkColumn<'trades'>[] = [
  ['account_id', 'int4'],
  ['product_id', 'int4'],
  ['side', 'text'],
  ['trade_type', 'text'],
  ['shares_micros', 'int8'],
  ['amount_cents', 'int8'],
  ['price_micros', 'int8'],
  ['reason', 'text'],
];
const TAX_TRADE_COLUMNS: BulkColumn<'trades'>[] = [...TRADE_COLUMNS, ['lots', 'text'], ['short_term_gain_cents', 'int8'], ['long_term_gain_cents', 'int8']];
const TAX_SUMMARY_COLUMNS: BulkColumn<'batch_tax_summaries'>[] = [
  ['client_id', 'int4'],
  ['short_term_gain_cents', 'int8'],
  ['long_term_gain_cents', 'int8'],
  ['harvested_loss_cents', 'int8'],
  ['wash_sale_moves', 'int4'],
  ['budget_cuts', 'int4'],
];
const TRANSFER_COLUMNS: BulkColumn<'sleeve_transfers'>[] = [
  ['registration_id', 'int4'],
  ['account_id', 'int4'],
  ['amount_cents', 'int8'],
  ['current_pct', 'float8'],
  ['target_pct', 'float8'],
  ['out_of_band', 'int4'],
];
const MESSAGE_COLUMNS: BulkColumn<'batch_messages'>[] = [
  ['account_id', 'int4'],
  ['severity', 'text'],
  ['code', 'text'],
  ['message', 'text'],
];

export function insertInstance(
  trx: Kysely<Database>,
  routine: 'Rebalance' | 'QuickTrade',
  input: { firmId: number; userName: string; notes: string | null; request: string; lotSelection?: LotSelection | null; now: string },
) {
  return trx
    .insertInto('trade_instances')
    .values({ firm_id: input.firmId, routine, notes: input.notes, request: input.request, lot_selection: input.lotSelection ?? null, status: 'Open', created_at: input.now, created_by: input.userName })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/**
 * Adds written trades to their instance's count. Called last before the batch's own counters in a
 * chunk's transaction: two workers finishing chunks of one batch wait on these rows in turn, so
 * the lock is taken as late as possible and in the same order everywhere.
 */
export async function countTrades(trx: Kysely<Database>, instanceId: number, written: number) {
  if (written === 0) return;
  await trx.updateTable('trade_instances').set({ trade_count: sql`trade_count + ${written}` }).where('id', '=', instanceId).execute();
}

/** New trades are open orders of their instance, however they were produced. */
export function insertTrades(trx: Kysely<Database>, firmId: number, instanceId: number, trades: TradeRow[], now: string) {
  return copyWrite(trx, tradeWrite(firmId, instanceId, trades, now));
}

/**
 * The bulk writes of trades and of a chunk's results, as rows and columns, not yet written: the
 * repositories write them, `trade-writes.sql.test.ts` checks in the SQL they compile to.
 */
export function tradeWrite(firmId: number, instanceId: number, trades: TradeRow[], now: string): BulkWrite<'trades'> {
  const constants: BulkWrite<'trades'>['constants'] = [['firm_id', 'int4', firmId], ['trade_instance_id', 'int4', instanceId], ['status', 'text', 'Open'], ['created_at', 'text', now]];
  // Only tax-aware trades carry lots; the others keep the narrower insert (the writers read a row's first columns only).
  return { table: 'trades', columns: trades.some((t) => t[8] !== null) ? TAX_TRADE_COLUMNS : TRADE_COLUMNS, constants, rows: trades };
}

export function messageWrite(chunk: { firmId: number; batchId: number }, messages: NewMessage[], now: string): BulkWrite<'batch_messages'> {
  return {
    table: 'batch_messages',
    columns: MESSAGE_COLUMNS,
    constants: [['firm_id', 'int4', chunk.firmId], ['batch_id', 'int4', chunk.batchId], ['created_at', 'text', now]],
    rows: messages.map((m) => [m.accountId, m.severity, m.code, m.message]),
  };
}

export function transferWrite(chunk: { firmId: number; batchId: number; instanceId: number }, transfers: NewTransfer[], now: string): BulkWrite<'sleeve_transfers'> {
  return {
    table: 'sleeve_transfers',
    columns: TRANSFER_COLUMNS,
    constants: [['firm_id', 'int4', chunk.firmId], ['trade_instance_id', 'int4', chunk.instanceId], ['batch_id', 'int4', chunk.batchId], ['created_at', 'text', now]],
    rows: transfers.map((t) => [t.registrationId, t.accountId, t.amountCents, t.currentPct, t.targetPct, t.outOfBand ? 1 : 0]),
  };
}

export function taxSummaryWrite(chunk: { firmId: number; batchId: number }, taxSummaries: NewTaxSummary[]): BulkWrite<'batch_tax_summaries'> {
  return {
    table: 'batch_tax_summaries',
    columns: TAX_SUMMARY_COLUMNS,
    constants: [['firm_id', 'int4', chunk.firmId], ['batch_id', 'int4', chunk.batchId]],
    rows: taxSummaries.map((t) => [t.householdId, t.shortTermGainCents, t.longTermGainCents, t.harvestedLossCents, t.washSaleMoves, t.budgetCuts]),
  };
}
