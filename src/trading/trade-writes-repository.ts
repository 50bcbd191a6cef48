import { type Kysely, sql } from 'kysely';
import { type BulkColumn, type Column, type ColumnType } from '../db/bulk-insert.js';
import { copyRows } from '../db/copy-rows.js';
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

export const TRADE_COLUMNS: BulkColumn<'trades'>[] = [
  ['account_id', 'int4'],
  ['product_id', 'int4'],
  ['side', 'text'],
  ['trade_type', 'text'],
  ['shares_micros', 'int8'],
  ['amount_cents', 'int8'],
  ['price_micros', 'int8'],
  ['reason', 'text'],
];
export const TAX_TRADE_COLUMNS: BulkColumn<'trades'>[] = [...TRADE_COLUMNS, ['lots', 'text'], ['short_term_gain_cents', 'int8'], ['long_term_gain_cents', 'int8']];
export const TAX_SUMMARY_COLUMNS: BulkColumn<'batch_tax_summaries'>[] = [
  ['client_id', 'int4'],
  ['short_term_gain_cents', 'int8'],
  ['long_term_gain_cents', 'int8'],
  ['harvested_loss_cents', 'int8'],
  ['wash_sale_moves', 'int4'],
  ['budget_cuts', 'int4'],
];
export const TRANSFER_COLUMNS: BulkColumn<'sleeve_transfers'>[] = [
  ['registration_id', 'int4'],
  ['account_id', 'int4'],
  ['amount_cents', 'int8'],
  ['current_pct', 'float8'],
  ['target_pct', 'float8'],
  ['out_of_band', 'int4'],
];
export const MESSAGE_COLUMNS: BulkColumn<'batch_messages'>[] = [
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
export function insertTrades(trx: Kysely<Database>, firmId: number, instanceId: number, trades: NewTrade[], now: string) {
  const constants: [Column<'trades'>, ColumnType, string | number][] = [['firm_id', 'int4', firmId], ['trade_instance_id', 'int4', instanceId], ['status', 'text', 'Open'], ['created_at', 'text', now]];
  // Only tax-aware trades carry lots; the others keep the narrower insert.
  if (trades.some((t) => t.lots != null)) {
    return copyRows(trx, 'trades', TAX_TRADE_COLUMNS, constants, trades.map((t) => [t.accountId, t.productId, t.side, t.tradeType, t.sharesMicros, t.amountCents, t.priceMicros, t.reason, t.lots ?? null, t.shortTermGainCents ?? null, t.longTermGainCents ?? null]));
  }
  return copyRows(trx, 'trades', TRADE_COLUMNS, constants, trades.map((t) => [t.accountId, t.productId, t.side, t.tradeType, t.sharesMicros, t.amountCents, t.priceMicros, t.reason]));
}
